"""Runs one `code.run_python` snippet (src-main/code/pythonRunner.ts starts it under bubblewrap).

The job arrives as one JSON object on stdin:
  {"code": str, "layers": {name: {"source", "sublayer", "kind"}}, "runDir": str,
   "limits": {"memoryMb": int, "fileMb": int, "textChars": int}}
The result leaves as one JSON line on fd 3, never on stdout, which the snippet owns:
  {"ok": true, "text", "textLength", "outputs": [{"name", "kind", "path", "exists"}]}
  {"ok": false, "kind": "syntax" | "exception" | "memory" | "refused", "message", ...}

The snippet sees `layers` (name -> a read-only GDAL dataset, opened on first use),
`output(name, kind)` (a path in the run's folder to create with GDAL), `print` (captured),
and `gdal`, `ogr`, `osr` (and `np` where numpy exists). The sandbox (no network, a read-only
file system except the run's folder, the app's files hidden) is the boundary; the audit hook
below only turns attempts to start processes, open sockets or load native code into clear
errors early.
"""

import builtins
import gc
import json
import os
import re
import resource
import signal
import sys
import traceback

SNIPPET = "<snippet>"
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,59}$")
KINDS = {"vector": "gpkg", "gpkg": "gpkg", "geopackage": "gpkg", "raster": "tif", "tif": "tif", "geotiff": "tif"}


def emit(result_file, payload):
    result_file.write(json.dumps(payload) + "\n")
    result_file.flush()


class Capture:
    """The snippet's text (print, sys.stdout, sys.stderr): the first `cap` characters and the total length."""

    def __init__(self, cap):
        self.cap = cap
        self.parts = []
        self.kept = 0
        self.total = 0

    def write(self, s):
        s = str(s)
        self.total += len(s)
        room = self.cap - self.kept
        if room > 0:
            piece = s[:room]
            self.parts.append(piece)
            self.kept += len(piece)
        return len(s)

    def flush(self):
        pass

    def isatty(self):
        return False

    def text(self):
        return "".join(self.parts)


def vm_size_bytes():
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


BLOCKED = {
    "subprocess.Popen": "starting a process",
    "os.system": "starting a process",
    "os.exec": "starting a process",
    "os.posix_spawn": "starting a process",
    "os.spawn": "starting a process",
    "os.fork": "starting a process",
    "os.forkpty": "starting a process",
    "pty.spawn": "starting a process",
    "socket.__new__": "opening a socket",
    "socket.connect": "opening a socket",
    "socket.bind": "opening a socket",
    "socket.getaddrinfo": "opening a socket",
    "ctypes.dlopen": "loading native code with ctypes",
    "ctypes.dlsym": "loading native code with ctypes",
    "ctypes.call_function": "calling native code with ctypes",
}


class Refused(PermissionError):
    pass


def audit(event, _args):
    what = BLOCKED.get(event)
    if what:
        raise Refused(f"{what} is not allowed in code.run_python (event {event})")


def frames_in_snippet(tb, lines):
    out = []
    for fr in traceback.extract_tb(tb):
        if fr.filename != SNIPPET:
            continue
        n = fr.lineno or 0
        text = lines[n - 1].strip() if 0 < n <= len(lines) else ""
        out.append({"line": n, "function": fr.name, "code": text})
    return out


def is_memory_error(e):
    if isinstance(e, MemoryError):
        return True
    msg = str(e).lower()
    return isinstance(e, RuntimeError) and ("out of memory" in msg or "cannot allocate memory" in msg)


def main():
    result_file = os.fdopen(3, "w", encoding="utf-8", closefd=True)
    job = json.loads(sys.stdin.read())
    code = job["code"]
    run_dir = job["runDir"]
    limits = job.get("limits", {})
    lines = code.splitlines()

    try:
        compiled = compile(code, SNIPPET, "exec")
    except SyntaxError as e:
        emit(
            result_file,
            {
                "ok": False,
                "kind": "syntax",
                "type": type(e).__name__,
                "message": e.msg,
                "line": e.lineno,
                "column": e.offset,
                "code": (e.text or "").rstrip("\n"),
            },
        )
        return

    from osgeo import gdal, ogr, osr

    gdal.UseExceptions()
    ogr.UseExceptions()
    osr.UseExceptions()
    extra = {}
    try:
        import numpy as np
        from osgeo import gdal_array  # noqa: F401  (ReadAsArray needs it loaded before the hook)

        extra["np"] = np
    except ImportError:
        pass

    opened = {}

    class Layers(dict):
        """The project's layers by name, each a read-only gdal.Dataset opened on first use."""

        def __missing__(self, name):
            spec = job["layers"].get(name)
            if spec is None:
                raise KeyError(f"no layer named {name!r}; the project has: {', '.join(sorted(job['layers'])) or 'no layers'}")
            flags = gdal.OF_READONLY | (gdal.OF_RASTER if spec["kind"] == "raster" else gdal.OF_VECTOR)
            ds = gdal.OpenEx(spec["source"], flags)
            opened[name] = ds
            self[name] = ds
            return ds

        def __iter__(self):
            return iter(job["layers"])

        def keys(self):
            return list(job["layers"])

        def __contains__(self, name):
            return name in job["layers"]

        def __len__(self):
            return len(job["layers"])

        def feature_layer(self, name):
            """The ogr.Layer a vector layer shows (its sublayer of a multi-layer file)."""
            ds = self[name]
            sub = job["layers"][name].get("sublayer")
            return ds.GetLayerByName(sub) if sub else ds.GetLayer(0)

    outputs = []

    def output(name, kind="vector"):
        """A path in the run's folder for a new GeoPackage (`vector`) or GeoTIFF (`raster`); create it with GDAL. It is loaded after the run."""
        if not isinstance(name, str) or not NAME_RE.match(name) or name in (".", ".."):
            raise ValueError(f"output name {name!r} must be a plain file name (letters, digits, _ . -; at most 60)")
        ext = KINDS.get(str(kind).lower())
        if ext is None:
            raise ValueError(f"output kind {kind!r} must be 'vector' (GeoPackage) or 'raster' (GeoTIFF)")
        if name.lower().endswith("." + ext):
            name = name[: -len(ext) - 1]
        if any(o["name"] == name for o in outputs):
            raise ValueError(f"output {name!r} was already requested")
        path = os.path.join(run_dir, f"{name}.{ext}")
        outputs.append({"name": name, "kind": "raster" if ext == "tif" else "vector", "path": path})
        return path

    capture = Capture(int(limits.get("textChars", 2000)))

    def captured_print(*args, sep=" ", end="\n", file=None, flush=False):
        if file is not None and file not in (sys.stdout, sys.stderr, capture):
            return builtins.print(*args, sep=sep, end=end, file=file, flush=flush)
        capture.write(sep.join(str(a) for a in args) + end)

    layers = Layers()
    g = {
        "__name__": "__main__",
        "__builtins__": builtins,
        "layers": layers,
        "output": output,
        "print": captured_print,
        "gdal": gdal,
        "ogr": ogr,
        "osr": osr,
        **extra,
    }

    # Budgets: memory on top of what Python and GDAL use already, file size, no core files.
    memory_mb = int(limits.get("memoryMb", 2048))
    cap = vm_size_bytes() + memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    file_bytes = int(limits.get("fileMb", 2048)) * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_FSIZE, (file_bytes, file_bytes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the cap fails with EFBIG instead

    sys.addaudithook(audit)
    sys.stdout = capture
    sys.stderr = capture

    failure = None
    try:
        exec(compiled, g)
    except SystemExit as e:
        if e.code not in (None, 0):
            failure = {"kind": "exception", "type": "SystemExit", "message": f"exit({e.code!r})", "lines": frames_in_snippet(e.__traceback__, lines)}
    except BaseException as e:  # noqa: BLE001 — everything the snippet raises is reported
        frames = frames_in_snippet(e.__traceback__, lines)
        if is_memory_error(e):
            failure = {"kind": "memory", "type": type(e).__name__, "message": str(e), "lines": frames}
        elif isinstance(e, Refused):
            failure = {"kind": "refused", "type": "PermissionError", "message": str(e), "lines": frames}
        else:
            failure = {"kind": "exception", "type": type(e).__name__, "message": str(e), "lines": frames}
        e = None
    # Closing every dataset the snippet left open flushes its outputs (a forgotten `ds = None`).
    g.clear()
    layers.clear()
    opened.clear()
    gc.collect()

    text = {"text": capture.text(), "textLength": capture.total}
    if failure:
        emit(result_file, {"ok": False, **failure, **text})
        return
    for o in outputs:
        o["exists"] = os.path.isfile(o["path"]) and not os.path.islink(o["path"])
    emit(result_file, {"ok": True, "outputs": outputs, **text})


if __name__ == "__main__":
    main()
