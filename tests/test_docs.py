"""Every CLI command has help text and is documented in the README."""

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from graphmem.cli import main

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def commands(group: click.Group, prefix: tuple[str, ...] = ()):
    for name, command in sorted(group.commands.items()):
        path = (*prefix, name)
        yield path, command
        if isinstance(command, click.Group):
            yield from commands(command, path)


ALL = list(commands(main))


@pytest.mark.parametrize("path, command", ALL, ids=[" ".join(p) for p, _ in ALL])
def test_command_has_help_and_is_documented(path, command):
    result = CliRunner().invoke(main, [*path, "--help"])
    assert result.exit_code == 0, result.output
    assert command.help and command.help.strip(), f"{' '.join(path)} has no help text"
    for option in command.params:
        if isinstance(option, click.Option):
            assert option.help, f"{' '.join(path)} {option.opts[0]} has no help text"
    assert f"graphmem {' '.join(path)}" in README, f"README does not document `graphmem {' '.join(path)}`"
