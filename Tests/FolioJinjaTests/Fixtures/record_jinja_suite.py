#!/usr/bin/env python3
"""Records the Jinja2 conformance cases (the format of shared/spec/jinja, see its README.md) from Jinja2 3.1.6's
own test suite. Nothing it writes belongs in the repository: it is how the full set behind the shared 60% sample
is made again, to check FolioJinja against all of it.

Run (Jinja2's tests at tag 3.1.6, a venv with jinja2==3.1.6, pytest and trio):

    git --git-dir=/path/to/pallets/jinja.git archive 3.1.6 | tar -x -C /tmp/jinja316
    python3 -m venv /tmp/jv && /tmp/jv/bin/pip install jinja2==3.1.6 pytest trio
    /tmp/jv/bin/python record_jinja_suite.py /tmp/jinja316 /tmp/jinja-full/spec/jinja [--compare shared/spec/jinja]
    FOLIO_SHARED_DIR=/tmp/jinja-full swift test --filter JinjaSpecTests

How: this file is also a pytest plugin (`-p record_jinja_suite`). It wraps `Environment.from_string`,
`Environment.get_template` and `Template.render` / `render_async`. An outermost render (or a compile that
fails) becomes a raw record when its environment is a plain `Environment` (no sandbox, native types or subclass)
with autoescape off, no finalize, built-in undefined classes, no extension but `do` and `loopcontrols`, a
template from a string or a `DictLoader`, and no template (the one rendered or the loader's) naming a filter, test
or global the test added. The data keeps the variables whose values are plain JSON (tuples and ranges as lists);
the loader's templates are kept when the template was loaded by name or includes, imports or extends. Outcomes
kept: the output, or `TemplateSyntaxError`, `TemplateAssertionError`, `UndefinedError`. Then each record is
rendered again by Jinja2 from the record alone (five times) and dropped if that differs, duplicates (template, data, options,
partials) are dropped (first kept, in pytest's order), and the kept cases of a test are numbered `#1`, `#2`, ...
"""
import collections
import json
import os
import subprocess
import sys

import jinja2
import pytest
from jinja2 import defaults, ext, loaders, meta, nodes
from jinja2.environment import Environment, Template
from jinja2.runtime import ChainableUndefined, DebugUndefined, StrictUndefined, Undefined

ERRORS = {"TemplateSyntaxError", "TemplateAssertionError", "UndefinedError"}
UNDEFINEDS = {Undefined: None, StrictUndefined: "StrictUndefined", ChainableUndefined: "ChainableUndefined",
              DebugUndefined: "DebugUndefined"}
UNDEFINED_CLASSES = {name: cls for cls, name in UNDEFINEDS.items() if name}
EXTENSIONS = {ext.ExprStmtExtension: "jinja2.ext.do", ext.LoopControlExtension: "jinja2.ext.loopcontrols"}
DELIMITERS = ["block_start_string", "block_end_string", "variable_start_string", "variable_end_string",
              "comment_start_string", "comment_end_string"]
STRING_OPTIONS = DELIMITERS + ["line_statement_prefix", "line_comment_prefix"]
RAW_OUT = os.environ.get("JINJA_RECORD_OUT", "/tmp/jinja-suite-raw.jsonl")


# ---- recording (the pytest plugin) ----

state = {"test": None, "depth": 0, "records": []}


class Skip(Exception):
    """The render is not one a case can describe."""


def options_of(env):
    """The environment's non-default options by their Jinja2 names; Skip when a case cannot say them."""
    if type(env) is not Environment or env.autoescape is not False or env.finalize is not None:
        raise Skip()
    if env.loader is not None and type(env.loader) is not loaders.DictLoader:
        raise Skip()
    if env.undefined not in UNDEFINEDS or set(env.policies) != set(defaults.DEFAULT_POLICIES):
        raise Skip()
    opts = {name: True for name in ["trim_blocks", "lstrip_blocks", "keep_trailing_newline"] if getattr(env, name)}
    if env.newline_sequence != "\n":
        opts["newline_sequence"] = env.newline_sequence
    for name in STRING_OPTIONS:
        if getattr(env, name) != getattr(defaults, name.upper()):
            opts[name] = getattr(env, name)
    if UNDEFINEDS[env.undefined]:
        opts["undefined"] = UNDEFINEDS[env.undefined]
    if any(type(e) not in EXTENSIONS for e in env.extensions.values()):
        raise Skip()
    if env.extensions:
        opts["extensions"] = sorted(EXTENSIONS[type(e)] for e in env.extensions.values())
    policies = {k: v for k, v in env.policies.items() if defaults.DEFAULT_POLICIES[k] != v}
    if policies:
        opts["policies"] = json_value(policies)
    return opts


def custom_names(env):
    """The filters, tests and globals of the environment that are not Jinja2's own."""
    pairs = [(env.filters, defaults.DEFAULT_FILTERS), (env.tests, defaults.DEFAULT_TESTS),
             (env.globals, defaults.DEFAULT_NAMESPACE)]
    return [{n for n, v in mine.items() if own.get(n, object()) is not v} for mine, own in pairs]


def names_used(env, source):
    ast = env.parse(source)
    filters = {n.name for n in ast.find_all((nodes.Filter, nodes.FilterBlock)) if getattr(n, "name", None)}
    tests = {n.name for n in ast.find_all(nodes.Test)}
    return filters, tests, {n.name for n in ast.find_all(nodes.Name) if n.ctx == "load"}


def uses_only_builtins(env, sources):
    """Whether no template names a filter, test or global the environment adds to (or changes in) Jinja2's."""
    custom = custom_names(env)
    if not any(custom):
        return True
    try:
        return not any(c & used for source in sources for c, used in zip(custom, names_used(env, source)))
    except Exception:
        return False


def references_others(env, source):
    try:
        ast = env.parse(source)
    except Exception:
        return False
    return any(True for _ in ast.find_all((nodes.Extends, nodes.Include, nodes.Import, nodes.FromImport)))


def json_value(value):
    """The value as plain JSON data (tuples and ranges as lists); TypeError when it is anything else."""
    if value is None or type(value) in (str, bool, int):
        return value
    if type(value) is float:
        if value != value or value in (float("inf"), float("-inf")):
            raise TypeError("float")
        return value
    if type(value) in (list, tuple, range):
        return [json_value(v) for v in value]
    if type(value) is dict and all(type(k) is str for k in value):
        return {k: json_value(v) for k, v in value.items()}
    raise TypeError(type(value).__name__)


def json_data(data):
    """The render data, keeping only the variables whose values are JSON."""
    out = {}
    for key, value in data.items():
        try:
            out[key] = json_value(value)
        except (TypeError, ValueError, RecursionError):
            pass
    return out


def partials_of(env, source, by_name):
    if env.loader is None or not (by_name or references_others(env, source)):
        return {}
    mapping = dict(env.loader.mapping)
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in mapping.items()):
        raise Skip()
    return mapping


def add(env, source, data, outcome, by_name):
    """Appends one raw record, or nothing when the render is not recordable."""
    if state["test"] is None or not isinstance(source, str) or outcome is None:
        return
    try:
        data = json_data(data)
        partials = partials_of(env, source, by_name)
        if not uses_only_builtins(env, [source, *partials.values()]):
            return
        record = {"desc": state["test"], "template": source, "data": data, "options": options_of(env),
                  "partials": partials}
    except (Skip, TypeError, ValueError, AttributeError):
        return
    record.update(outcome)
    state["records"].append(record)


def outcome_of(error):
    name = type(error).__name__
    return {"error": name} if name in ERRORS else None


original_from_string = Environment.from_string
original_get_template = Environment.get_template
original_render = Template.render
original_render_async = Template.render_async
original_dict_load = loaders.DictLoader.load


def mark(template, source, by_name):
    try:
        template._rec_source = source if isinstance(source, str) else None
        template._rec_by_name = by_name
    except AttributeError:
        pass
    return template


def from_string(self, source, globals=None, template_class=None):
    try:
        template = original_from_string(self, source, globals, template_class)
    except Exception as e:
        if state["depth"] == 0 and not globals:
            add(self, source, {}, outcome_of(e), False)
        raise
    return mark(template, source, False)


def get_template(self, name, parent=None, globals=None):
    try:
        return original_get_template(self, name, parent, globals)
    except Exception as e:
        loader = self.loader
        if state["depth"] == 0 and not globals and parent is None and type(loader) is loaders.DictLoader:
            if isinstance(name, str) and name in loader.mapping:
                add(self, loader.mapping[name], {}, outcome_of(e), True)
        raise


def dict_load(self, environment, name, globals=None):
    source = self.mapping.get(name)
    return mark(original_dict_load(self, environment, name, globals), source, True)


def record_render(template, args, kwargs, outcome):
    source = getattr(template, "_rec_source", None)
    if source is None or outcome is None:
        return
    try:
        data = dict(*args, **kwargs)
    except (TypeError, ValueError):
        return
    add(template.environment, source, data, outcome, getattr(template, "_rec_by_name", False))


def render(self, *args, **kwargs):
    outer = state["depth"] == 0
    state["depth"] += 1
    try:
        output = original_render(self, *args, **kwargs)
    except Exception as e:
        state["depth"] -= 1
        if outer:
            record_render(self, args, kwargs, outcome_of(e))
        raise
    state["depth"] -= 1
    if outer and isinstance(output, str):
        record_render(self, args, kwargs, {"expected": output})
    return output


async def render_async(self, *args, **kwargs):
    outer = state["depth"] == 0
    state["depth"] += 1
    try:
        output = await original_render_async(self, *args, **kwargs)
    except BaseException as e:
        state["depth"] -= 1
        if outer:
            record_render(self, args, kwargs, outcome_of(e))
        raise
    state["depth"] -= 1
    if outer and isinstance(output, str):
        record_render(self, args, kwargs, {"expected": output})
    return output


def pytest_configure(config):
    Environment.from_string = from_string
    Environment.get_template = get_template
    Template.render = render
    Template.render_async = render_async
    loaders.DictLoader.load = dict_load


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_call(item):
    state["test"] = item.nodeid
    state["depth"] = 0


def pytest_runtest_teardown(item):
    state["test"] = None


def pytest_sessionfinish(session):
    with open(RAW_OUT, "w") as f:
        for record in state["records"]:
            f.write(json.dumps(record, ensure_ascii=False) + "\n")


# ---- checking and writing the cases ----

def environment(record):
    kwargs = dict(record["options"])
    if "undefined" in kwargs:
        kwargs["undefined"] = UNDEFINED_CLASSES[kwargs["undefined"]]
    policies = kwargs.pop("policies", {})
    env = Environment(loader=loaders.DictLoader(record.get("partials", {})), **kwargs)
    env.policies.update(policies)
    return env


def rerender(record):
    """What Jinja2 gives for the record alone: {'expected': ...}, {'error': ...}, or None for another error."""
    try:
        return {"expected": environment(record).from_string(record["template"]).render(**record["data"])}
    except (jinja2.TemplateSyntaxError, jinja2.TemplateAssertionError, jinja2.UndefinedError) as e:
        return {"error": type(e).__name__}
    except Exception:
        return None


BINOPS = {nodes.Add: "+", nodes.Sub: "-", nodes.Mul: "*", nodes.Div: "/", nodes.FloorDiv: "//", nodes.Mod: "%",
          nodes.Pow: "**", nodes.Concat: "~", nodes.And: "and", nodes.Or: "or", nodes.Not: "not",
          nodes.Neg: "unary-", nodes.Pos: "unary+", nodes.CondExpr: "if-else"}
COMPARES = {"eq": "==", "ne": "!=", "lt": "<", "lteq": "<=", "gt": ">", "gteq": ">=", "in": "in", "notin": "not in"}
LITERALS = {bool: "bool", int: "int", float: "float", str: "str", type(None): "none"}
STATEMENTS = {nodes.Macro: "macro", nodes.CallBlock: "call", nodes.FilterBlock: "filter", nodes.With: "with",
              nodes.Block: "block", nodes.Extends: "extends", nodes.Include: "include", nodes.Import: "import",
              nodes.FromImport: "from-import", nodes.Assign: "set", nodes.AssignBlock: "set-block",
              nodes.ExprStmt: "do", nodes.Break: "break", nodes.Continue: "continue",
              nodes.ScopedEvalContextModifier: "autoescape", nodes.For: "for", nodes.If: "if"}


def expression_features(node, out):
    t = type(node)
    if isinstance(node, nodes.Output) and any(not isinstance(n, nodes.TemplateData) for n in node.nodes):
        out.add("output:expr")
    if t is nodes.Const and type(node.value) in LITERALS:
        out.add("lit:" + LITERALS[type(node.value)])
    if t in (nodes.List, nodes.Dict) or (t is nodes.Tuple and node.ctx == "load"):
        out.add("lit:" + t.__name__.lower())
    if t in BINOPS:
        out.add("op:" + BINOPS[t])
    if t is nodes.Compare:
        out.update("op:" + COMPARES.get(op.op, op.op) for op in node.ops)
        if len(node.ops) > 1:
            out.add("op:chained-compare")
    if t is nodes.Getattr:
        on_loop = isinstance(node.node, nodes.Name) and node.node.name == "loop"
        out.add("loop." + node.attr if on_loop else "attr")
    if t is nodes.Getitem:
        out.add("subscript")
    if t in (nodes.Filter, nodes.FilterBlock) and node.name:
        out.add("filter:" + node.name)
    if t is nodes.Test:
        out.add("test:" + node.name)
    if t is nodes.Call:
        call_features(node, out)


def call_features(node, out):
    callee = node.node
    if isinstance(callee, nodes.Getattr):
        on_loop = isinstance(callee.node, nodes.Name) and callee.node.name == "loop"
        out.add(("loop." if on_loop else "method:.") + callee.attr + "()")
    elif isinstance(callee, nodes.Name) and callee.name in ("caller", "loop", "super"):
        out.add(callee.name + "()")
    elif isinstance(callee, nodes.Name) and callee.name in defaults.DEFAULT_NAMESPACE:
        out.add("global:" + callee.name)
    else:
        out.add("call")
    if node.kwargs or node.dyn_kwargs:
        out.add("call:kwargs")
    if node.dyn_args or node.dyn_kwargs:
        out.add("call:star-args")


def statement_features(node, out):
    t = type(node)
    if t in STATEMENTS:
        out.add("stmt:" + STATEMENTS[t])
    if t is nodes.For:
        flags = {"else": node.else_, "if-filter": node.test, "recursive": node.recursive,
                 "unpack": isinstance(node.target, nodes.Tuple)}
        out.update("for:" + name for name, on in flags.items() if on)
    if t is nodes.If:
        out.update(name for name, on in {"stmt:elif": node.elif_, "stmt:else": node.else_}.items() if on)
    if t is nodes.Macro and node.defaults:
        out.add("macro:defaults")
    if t is nodes.Block and node.scoped:
        out.add("block:scoped")
    if t in (nodes.Include, nodes.Import, nodes.FromImport) and node.with_context:
        out.add("import:with-context")
    if t in (nodes.Assign, nodes.AssignBlock) and isinstance(node.target, nodes.NSRef):
        out.add("namespace-assign")


def lexical_features(env, source, out):
    if "raw" in source and "endraw" in source:
        out.add("stmt:raw")
    if env.comment_start_string in source or (env.line_comment_prefix and env.line_comment_prefix in source):
        out.add("comment")
    starts = [env.block_start_string, env.variable_start_string, env.comment_start_string]
    ends = [env.block_end_string, env.variable_end_string, env.comment_end_string]
    for sign in "-+":
        if any(s + sign in source for s in starts) or any(sign + e in source for e in ends):
            out.add("ws:" + sign)


def option_features(case, out):
    opts = case["options"]
    out.update("opt:" + name for name in ["trim_blocks", "lstrip_blocks", "keep_trailing_newline",
                                          "newline_sequence", "line_statement_prefix", "line_comment_prefix",
                                          "policies"] if name in opts)
    if any(name in opts for name in DELIMITERS):
        out.add("opt:custom-delimiters")
    if "undefined" in opts:
        out.add("opt:undefined=" + opts["undefined"])
    out.update("ext:" + name.rsplit(".", 1)[1] for name in opts.get("extensions", []))
    if case.get("partials"):
        out.add("partials")
    if "error" in case:
        out.add("error:" + case["error"])


def features(case):
    """Tags for what the case uses (statements, filters, tests, literals, options)."""
    out = set()
    env = environment(case)
    try:
        ast = env.parse(case["template"])
        for node in [ast, *ast.find_all(nodes.Node)]:
            expression_features(node, out)
            statement_features(node, out)
    except Exception:
        out.add("unparsable")
    lexical_features(env, case["template"], out)
    option_features(case, out)
    return sorted(out)


def module_of(desc):
    return desc.split("::", 1)[0].rsplit("/", 1)[-1][len("test_"):-len(".py")]


def kept_records(raw):
    seen, kept, dropped = set(), [], collections.Counter()
    for r in raw:
        outcome = {k: r[k] for k in ("expected", "error") if k in r}
        key = json.dumps([r["template"], r["data"], r["options"], r["partials"]], sort_keys=True)
        # Five times, so that a random result (|random, lipsum()) cannot pass by chance.
        if any(rerender(r) != outcome for _ in range(5)):
            dropped["renders differently from the record alone"] += 1
        elif key in seen:
            dropped["duplicate"] += 1
        else:
            seen.add(key)
            kept.append((r, outcome))
    print("dropped:", dict(dropped))
    return kept


def write_cases(raw, out_dir):
    kept = kept_records(raw)
    per_test, index, files = collections.Counter(r["desc"] for r, _ in kept), collections.Counter(), {}
    for r, outcome in kept:
        index[r["desc"]] += 1
        test = r["desc"].split("::", 1)[1].replace("::", ".")
        case = {"name": test if per_test[r["desc"]] == 1 else f"{test} #{index[r['desc']]}", "desc": r["desc"],
                "template": r["template"], "data": r["data"], "options": r["options"]}
        if r["partials"]:
            case["partials"] = r["partials"]
        case.update(outcome)
        case["features"] = features(case)
        files.setdefault(module_of(r["desc"]), []).append(case)
    os.makedirs(out_dir, exist_ok=True)
    for module, cases in sorted(files.items()):
        overview = (f"Jinja2 conformance cases recorded from Jinja2 3.1.6's tests/test_{module}.py by "
                    "record_jinja_suite.py: render `template` with context `data` in an Environment configured by "
                    "`options` (non-default values only); `partials` are a DictLoader's templates; the output must "
                    "equal `expected` exactly, or rendering must fail with the Jinja2 exception named by `error`. "
                    f"Split: FULL of {module}.json.")
        with open(os.path.join(out_dir, module + ".json"), "w") as f:
            json.dump({"overview": overview, "tests": cases}, f, indent=4, ensure_ascii=False)
            f.write("\n")
        print(f"{module}.json: {len(cases)} cases")
    return files


def compare(files, shared_dir):
    """How the shared sample relates to these cases: each shared case should be one of them, field for field."""
    fields = lambda t: json.dumps([t.get(k) for k in ("name", "template", "data", "options", "partials",
                                                        "expected", "error")], sort_keys=True)
    for name in sorted(os.listdir(shared_dir)):
        if name.endswith(".json"):
            shared = json.load(open(os.path.join(shared_dir, name)))["tests"]
            mine = {fields(t) for t in files.get(name[:-len(".json")], [])}
            missing = [t["name"] for t in shared if fields(t) not in mine]
            print(f"{name}: shared {len(shared)} of {len(mine)}; not recorded here: {missing[:5]}")


def main(args):
    jinja_dir, out_dir = args[0], args[1]
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.abspath(__file__)), JINJA_RECORD_OUT=RAW_OUT)
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "record_jinja_suite", "-p", "no:cacheprovider",
                    "tests"], cwd=jinja_dir, env=env, check=False)
    files = write_cases([json.loads(line) for line in open(RAW_OUT)], out_dir)
    if "--compare" in args:
        compare(files, args[args.index("--compare") + 1])


if __name__ == "__main__":
    assert jinja2.__version__ == "3.1.6", jinja2.__version__
    main(sys.argv[1:])
