# Makes expected.txt with Jinja2 3.1.6 (pip install jinja2==3.1.6 in a scratch venv): python3 record.py
import json, jinja2
options = json.load(open("options.json"))
options["undefined"] = getattr(jinja2, options["undefined"])
env = jinja2.Environment(loader=jinja2.FileSystemLoader("partials"), **options)
template = env.from_string(open("page.j2").read())
open("expected.txt", "w", newline="").write(template.render(**json.load(open("data.json"))))
