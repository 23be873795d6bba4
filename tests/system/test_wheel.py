"""The built wheel installs into a fresh virtual environment and serves: the interface,
the console, the receiver page and the demo media all come from the installed package.

Run it alone with ``pytest -m wheel``. The wheel is built without build isolation (the
test environment's setuptools) from a copy of the tree, so the work tree stays clean.
The fresh environment takes the wheel itself and nothing of the source tree; its
dependencies are those of the test environment, reached through a path file, so the
test runs without a package index (``TILEWALL_WHEEL_INDEX=1`` installs them from the
index instead, as docs/install.md does).
"""

import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import httpx
import pytest

from tests.support.serving import Served, logged_in
from tilewall import __version__

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.wheel, pytest.mark.timeout(300)]


def build_wheel(work: Path) -> Path:
    tree = work / "tree"
    tree.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, tree / name)
    shutil.copytree(
        ROOT / "src", tree / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info")
    )
    subprocess.run(
        [
            sys.executable,
            "-m",
            "build",
            "--wheel",
            "--no-isolation",
            "--outdir",
            str(work / "dist"),
            str(tree),
        ],
        check=True,
        capture_output=True,
        timeout=180,
    )
    (wheel,) = (work / "dist").glob("tilewall-*.whl")
    return wheel


def test_the_wheel_installs_into_a_fresh_venv_and_serves(tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path)
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    python = env_dir / "bin" / "python"
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    clean_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    pip = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    if os.environ.get("TILEWALL_WHEEL_INDEX") == "1":
        subprocess.run([*pip, f"{wheel}[server]"], check=True, env=clean_env, timeout=600)
    else:
        subprocess.run(
            [*pip, "--no-deps", "--no-index", str(wheel)], check=True, env=clean_env, timeout=120
        )
        (site / "_test_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    where = subprocess.run(
        [str(python), "-c", "import tilewall; print(tilewall.__file__)"],
        check=True,
        capture_output=True,
        text=True,
        env=clean_env,
    ).stdout.strip()
    assert Path(where).is_relative_to(env_dir), where

    served = Served(
        tmp_path / "data",
        "--demo",
        command=[str(env_dir / "bin" / "tilewall")],
    )
    served.env = {**served.env, **{k: v for k, v in clean_env.items() if k not in served.env}}
    served.env.pop("PYTHONPATH", None)
    with served:
        client = logged_in(served.base)
        system = client.get("/system")
        assert system.status_code == 200, system.text
        assert client.get("/displays").json()["displays"], "the demo topology"
        media = client.get("/media").json()["files"]
        assert {"demo/bars.png", "demo/clip.mp4"} <= {f["name"] for f in media}
        assert httpx.get(f"{served.origin}/media/demo/clip.mp4").status_code == 401
        clip = client.get(f"{served.origin}/media/demo/clip.mp4", headers={"Range": "bytes=0-15"})
        assert clip.status_code == 206 and clip.content[4:8] == b"ftyp"
        for page, marker in (("/", b"<html"), ("/receiver/", b"receiver.js")):
            answer = httpx.get(served.origin + page)
            assert answer.status_code == 200 and marker in answer.content, page
        # one version: the wheel's, the host's and the pages' are tilewall.__version__
        assert wheel.name.startswith(f"tilewall-{__version__}-"), wheel.name
        version = httpx.get(f"{served.origin}/receiver/version.js")
        assert version.status_code == 200, version.text
        assert version.headers["content-type"].startswith("text/javascript")
        assert version.text == f'export const VERSION = "{__version__}";\n'
        client.close()
