"""`python -m graphmem` runs the command line (through the store's holder when there is one)."""

from ._launch import main

main()
