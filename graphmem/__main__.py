"""`python -m graphmem` runs the command line."""

from .cli import main

main(prog_name="graphmem")
