#!/usr/bin/env python3
"""The peers of `folio-bench jinja`: Jinja2 or MiniJinja compiling and rendering template sets, timed in this process.

    jinja_peer.py --peer jinja2|minijinja --n N --set NAME TEMPLATES_DIR CONTEXT_JSON OUT_DIR [--set ...]

For each set: every file in TEMPLATES_DIR (sorted by name) is compiled from its source, then rendered with the
variables in CONTEXT_JSON; one run is the compile of all files, then the render of all files. After one warm-up
run, N runs are timed with time.perf_counter; the medians of the compile total, the render total and their sum per
run are printed as JSON (milliseconds), and the last run's outputs are written to OUT_DIR under the files' names.
Both engines use their defaults (no autoescape, no trim_blocks/lstrip_blocks, final newline removed).
"""
import argparse
import json
import os
import platform
import statistics
import sys
import time


def jinja2_engine():
    import jinja2

    env = jinja2.Environment()  # from_string compiles each time (no cache); autoescape off, as Folio's default

    def compile_all(sources):
        return [env.from_string(source) for _, source in sources]

    def render_all(compiled, sources, context):
        return [template.render(context) for template in compiled]

    return "jinja2", jinja2.__version__, compile_all, render_all


def minijinja_engine():
    import minijinja
    from importlib.metadata import version

    def compile_all(sources):
        # add_template parses and compiles at once (a syntax error raises here); a fresh environment per run.
        env = minijinja.Environment()
        env.auto_escape_callback = lambda name: False  # MiniJinja escapes .html/.xml names by default; Jinja2's from_string does not
        for name, source in sources:
            env.add_template(name, source)
        return env

    def render_all(env, sources, context):
        return [env.render_template(name, **context) for name, _ in sources]

    return "minijinja", version("minijinja"), compile_all, render_all


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--peer", required=True, choices=["jinja2", "minijinja"])
    parser.add_argument("--n", type=int, default=30)
    parser.add_argument("--set", nargs=4, action="append", metavar=("NAME", "TEMPLATES_DIR", "CONTEXT_JSON", "OUT_DIR"), required=True)
    args = parser.parse_args()
    name, engine_version, compile_all, render_all = (jinja2_engine if args.peer == "jinja2" else minijinja_engine)()

    report = {"peer": name, "version": engine_version, "python": platform.python_version(), "runs": args.n, "sets": {}}
    for set_name, folder, context_path, out_dir in args.set:
        sources = []
        for file in sorted(os.listdir(folder)):
            with open(os.path.join(folder, file), encoding="utf-8") as f:
                sources.append((file, f.read()))
        with open(context_path, encoding="utf-8") as f:
            context = json.load(f)
        compile_times, render_times, totals = [], [], []
        outputs = None
        for run in range(args.n + 1):
            start = time.perf_counter()
            compiled = compile_all(sources)
            middle = time.perf_counter()
            outputs = render_all(compiled, sources, context)
            end = time.perf_counter()
            if run == 0:
                continue  # warm-up
            compile_times.append((middle - start) * 1000)
            render_times.append((end - middle) * 1000)
            totals.append((end - start) * 1000)
        os.makedirs(out_dir, exist_ok=True)
        for (file, _), text in zip(sources, outputs):
            with open(os.path.join(out_dir, file), "w", encoding="utf-8", newline="") as f:
                f.write(text)
        report["sets"][set_name] = {
            "files": len(sources),
            "output_bytes": sum(len(text.encode("utf-8")) for text in outputs),
            "compile_median_ms": statistics.median(compile_times),
            "render_median_ms": statistics.median(render_times),
            "total_median_ms": statistics.median(totals),
            "compile_min_ms": min(compile_times),
            "render_min_ms": min(render_times),
        }
    json.dump(report, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
