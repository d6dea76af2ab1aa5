# Runs before any question, in a copy of the template: adds a question, changes a default, adds a file.
import json

with open("cookiecutter.json") as f:
    config = json.load(f)
config["name"] = config["name"].upper()
config["flavour"] = ["vanilla", "chocolate"]
with open("cookiecutter.json", "w") as f:
    json.dump(config, f)
with open("{{cookiecutter.name}}/extra.txt", "w") as f:
    f.write("added before the questions for {{ cookiecutter.name }}\n")
print("pre_prompt ran")
