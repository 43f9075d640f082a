"""`sitegen completion bash|zsh|fish`: the script that teaches a shell to complete sitegen's commands and options.

The script calls `sitegen` back with `_SITEGEN_COMPLETE` set, which click answers from the same
command definitions the program runs, so completion never falls behind the options.
"""

from __future__ import annotations

import click

SHELLS = ("bash", "zsh", "fish")


@click.command("completion")
@click.argument("shell", type=click.Choice(SHELLS))
def completion_command(shell: str) -> None:
    """Print the shell completion script for SHELL (bash, zsh or fish).

    \b
    bash:  eval "$(sitegen completion bash)"   (in ~/.bashrc)
    zsh:   eval "$(sitegen completion zsh)"    (in ~/.zshrc)
    fish:  sitegen completion fish > ~/.config/fish/completions/sitegen.fish
    """
    from click.shell_completion import get_completion_class

    context = click.get_current_context()
    program = context.find_root()
    shown = get_completion_class(shell)
    assert shown is not None  # every name in SHELLS is one click ships
    click.echo(shown(program.command, {}, program.info_name or "sitegen", "_SITEGEN_COMPLETE").source())
