"""`sitegen completion bash|zsh|fish`: the script each shell sources, and the answers it asks the program for."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from .test_verbosity import SITEGEN, sitegen


@pytest.mark.parametrize(("shell", "marker"), [
    ("bash", "complete -o nosort -F _sitegen_completion sitegen"),
    ("zsh", "compdef _sitegen_completion sitegen"),
    ("fish", "complete --no-files --command sitegen"),
])
def test_each_shell_gets_its_script(shell: str, marker: str) -> None:
    done = sitegen("completion", shell)
    assert done.returncode == 0 and marker in done.stdout and "_SITEGEN_COMPLETE" in done.stdout, done


def test_an_unknown_shell_is_a_usage_error() -> None:
    done = sitegen("completion", "tcsh")
    assert done.returncode == 2 and "'tcsh' is not one of 'bash', 'zsh', 'fish'" in done.stderr


def _complete(*words: str) -> list[str]:
    """What the bash script asks: the program answers with one `type,value` line per candidate."""
    env = {**os.environ, "_SITEGEN_COMPLETE": "bash_complete", "COMP_WORDS": " ".join(["sitegen", *words]),
           "COMP_CWORD": str(len(words))}
    done = subprocess.run([str(SITEGEN)], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return [line.split(",", 1)[1] for line in done.stdout.splitlines()]


def test_commands_and_options_are_completed() -> None:
    assert {"build", "serve", "import", "enrich", "completion"} <= set(_complete(""))
    assert _complete("se") == ["serve"]
    assert {"--poll", "--open", "--port", "--quiet"} <= set(_complete("serve", "--"))
    assert _complete("completion", "z") == ["zsh"]


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash here")
def test_bash_sources_the_script_and_completes_through_it(tmp_path: Path) -> None:
    """The script as bash runs it: sourced, then its function called as a Tab press would."""
    script = tmp_path / "completion.bash"
    script.write_text(sitegen("completion", "bash").stdout, encoding="utf-8")
    driver = (f"source {script}\nCOMP_WORDS=(sitegen bu)\nCOMP_CWORD=1\n_sitegen_completion sitegen\n"
              'printf "%s\\n" "${COMPREPLY[@]}"\n')
    env = {**os.environ, "PATH": f"{SITEGEN.parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["bash", "-c", driver], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.split() == ["build"], done
