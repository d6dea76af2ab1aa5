#!/usr/bin/env python3
"""Records what the real extensions give for each case in cases.py into extensions.json.

Run from this folder, with the clock fixed by this script at 2026-03-04T05:06:07.123456Z:
  python3 -m venv /tmp/jv && /tmp/jv/bin/pip install jinja2==3.1.6 cookiecutter==2.7.1 jinja2-time==0.2.0 \
      jinja2-ansible-filters==1.3.2 python-slugify==9.2.0 arrow==1.4.0
  TZ=UTC /tmp/jv/bin/python record.py
"""
import json
import arrow
import jinja2
from jinja2 import Environment, StrictUndefined

from cases import CASES

assert jinja2.__version__ == "3.1.6", jinja2.__version__
FIXED = arrow.get("2026-03-04T05:06:07.123456+00:00")
arrow.now = lambda tz="local": FIXED.to(tz)  # what the time extensions call
out = []
for template, data, extensions in CASES:
    env = Environment(extensions=extensions, undefined=StrictUndefined, keep_trailing_newline=True)
    record = {"template": template, "data": data, "extensions": extensions}
    try:
        record["expected"] = env.from_string(template).render(**data)
    except Exception as e:
        record["error"] = type(e).__name__
    out.append(record)
with open("extensions.json", "w") as f:
    json.dump({"overview": "Recorded by record.py (Jinja2 3.1.6, cookiecutter 2.7.1, jinja2-time 0.2.0, jinja2-ansible-filters 1.3.2, "
               "python-slugify 9.2.0) with the clock at 2026-03-04T05:06:07.123456Z", "now": FIXED.timestamp(), "tests": out},
              f, indent=1, ensure_ascii=False)
    f.write("\n")
print(len(out), "cases")
