#!/usr/bin/env python3
"""Records the expected output of every case in cases.py with Jinja2 3.1.6 into behaviour.json.

Run from this folder: python3 -m venv /tmp/j && /tmp/j/bin/pip install jinja2==3.1.6 && /tmp/j/bin/python record.py
"""
import json
import jinja2
from jinja2 import Environment, DictLoader, StrictUndefined, ChainableUndefined, DebugUndefined

from cases import CASES

assert jinja2.__version__ == "3.1.6", jinja2.__version__
UNDEFINED = {"StrictUndefined": StrictUndefined, "ChainableUndefined": ChainableUndefined, "DebugUndefined": DebugUndefined}
out = []
for case in CASES:
    template, data = case[0], case[1] if len(case) > 1 else {}
    options = dict(case[2]) if len(case) > 2 else {}
    partials = case[3] if len(case) > 3 else {}
    kwargs = dict(options)
    if "undefined" in kwargs:
        kwargs["undefined"] = UNDEFINED[kwargs["undefined"]]
    env = Environment(loader=DictLoader(partials), **kwargs)
    record = {"desc": template, "template": template, "data": data, "options": options, "partials": partials}
    try:
        record["expected"] = env.from_string(template).render(**data)
    except jinja2.TemplateError as e:
        record["error"] = type(e).__name__
    except Exception as e:  # Python errors (TypeError, ValueError, ZeroDivisionError, OverflowError)
        record["error"] = "PythonError:" + type(e).__name__
    out.append(record)
with open("behaviour.json", "w") as f:
    json.dump({"overview": "Recorded by record.py with Jinja2 3.1.6 from cases.py", "tests": out}, f, indent=1, ensure_ascii=False)
    f.write("\n")
print(len(out), "cases")
