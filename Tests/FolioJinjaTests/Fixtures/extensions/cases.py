"""Cases for the extensions Folio builds in: (template, data, extensions). Recorded by record.py."""
CC = ["cookiecutter.extensions.JsonifyExtension", "cookiecutter.extensions.SlugifyExtension",
      "cookiecutter.extensions.TimeExtension", "cookiecutter.extensions.RandomStringExtension",
      "cookiecutter.extensions.UUIDExtension"]
TIME = ["jinja2_time.TimeExtension"]
ANS = ["jinja2_ansible_filters.AnsibleCoreFiltersExtension"]

def _random_strings():
    """400 seeded strings of YAML's special characters, for the YAML emitter's scalar styles and folding."""
    import random
    rng = random.Random(7)
    alphabet = list("ab :#-?,[]{}'\"\n\t !*&|>%@`.~=<0123456789xyz") + ["ü", "☃", "😀", "\u0085", "\u00a0", "\u2028", "\r", "\x07"]
    values = ["".join(rng.choice(alphabet) for _ in range(rng.choice([0, 1, 2, 3, 5, 8, 20, 90]))) for _ in range(400)]
    return {"d": {f"k{i}": v for i, v in enumerate(values)}, "l": values[:50]}


CASES = [
    # cookiecutter: jsonify
    ("{{ c | jsonify }}", {"c": {"b": [1, 2.5, None, True], "a": "é\"x", "n": {"z": 1, "y": {}}}}, CC),
    ("{{ c | jsonify(2) }}", {"c": {"k": ["v", []]}}, CC),
    ("{{ c | jsonify }}", {"c": []}, CC),
    # cookiecutter: slugify
    ("{{ 'Hello World' | slugify }}", {}, CC),
    ("{{ 'Café Crème Brûlée' | slugify }}", {}, CC),
    ("{{ \"  It's a   Test!! \" | slugify }}", {}, CC),
    ("{{ 'Straße Øresund Æsir łódź' | slugify }}", {}, CC),
    ("{{ '1,000 ways, 2,5' | slugify }}", {}, CC),
    ("{{ 'caf&eacute; &amp; &#233; &#xE9; &bogus;' | slugify }}", {}, CC),
    ("{{ 'My_Project.Name v2' | slugify(separator='_') }}", {}, CC),
    ("{{ 'the quick brown fox' | slugify(stopwords=['the', 'fox']) }}", {}, CC),
    ("{{ 'one two three four five' | slugify(max_length=12) }}", {}, CC),
    ("{{ 'one two three four five' | slugify(max_length=12, word_boundary=True) }}", {}, CC),
    ("{{ 'one two three four five' | slugify(max_length=9, word_boundary=True, save_order=True) }}", {}, CC),
    ("{{ 'Keep CASE' | slugify(lowercase=False) }}", {}, CC),
    ("{{ 'C++ & C#' | slugify(replacements=[['++', 'pp'], ['#', 'sharp']]) }}", {}, CC),
    ("{{ 'Ünïcödé Wörds' | slugify(allow_unicode=True) }}", {}, CC),
    ("{{ '--dashes--and  spaces--' | slugify }}", {}, CC),
    ("{{ 'ﬁne ①' | slugify }}", {}, CC),
    ("{{ '' | slugify }}", {}, CC),
    ("{{ 42 | slugify }}", {}, CC),
    # cookiecutter and jinja2-time: now, with the clock fixed at 2026-03-04T05:06:07.123456Z
    ("{% now 'utc' %}", {}, CC),
    ("{% now 'utc', '%Y-%m-%dT%H:%M:%S.%f%z %Z %a %b %j %%' %}", {}, CC),
    ("{% now 'utc' + 'days=1, hours=2', '%Y-%m-%d %H:%M' %}", {}, CC),
    ("{% now 'utc' - 'weeks=1, minutes=7.5', '%Y-%m-%d %H:%M:%S' %}", {}, CC),
    ("{% now 'utc' + 'months=11', '%Y-%m-%d' %}", {}, CC),
    ("{% now 'utc' - 'years=2', '%Y' %}", {}, CC),
    ("{% now 'UTC', '%A %d %B %Y' %}", {}, TIME),
    ("Copyright {% now 'utc', '%Y' %} {{ who }}", {"who": "Ann"}, TIME),
    # ansible filters, as copier loads them
    ("{{ d | to_json }}", {"d": {"b": 1, "a": [True, None, "ü"]}}, ANS),
    ("{{ d | to_json(sort_keys=True, indent=2) }}", {"d": {"b": 1, "a": [1]}}, ANS),
    ("{{ d | to_json(ensure_ascii=False) }}", {"d": {"k": "ü"}}, ANS),
    ("{{ d | to_nice_json }}", {"d": {"b": {"y": 2, "x": [1, 2]}, "a": "s"}}, ANS),
    ("{{ d | to_nice_json(indent=2) }}", {"d": [1, {"z": None}]}, ANS),
    ("{{ ('{\"a\": [1, 2.5, \"x\"]}' | from_json).a[1] }}", {}, ANS),
    ("{{ 'Folio ünïcode!' | b64encode }}|{{ 'Rm9saW8=' | b64decode }}|{{ 'YQ==' | b64decode }}", {}, ANS),
    ("{{ '/a/b/c.tar.gz' | basename }}|{{ '/a/b/c.tar.gz' | dirname }}|{{ 'a/b/' | basename }}|{{ 'a/b/' | dirname }}|{{ '/' | dirname }}|{{ 'x' | dirname }}", {}, ANS),
    ("{{ 'a/b.c/d.txt' | splitext }}|{{ '.bashrc' | splitext }}|{{ 'x.' | splitext }}", {}, ANS),
    ("{{ 'C:\\\\x\\\\y.txt' | win_basename }}|{{ 'C:\\\\x\\\\y.txt' | win_dirname }}", {}, ANS),
    ("{{ 'it''s here' | quote }}|{{ 'plain-word_1.2' | quote }}|{{ '' | quote }}|{{ 'a b' | quote }}", {}, ANS),
    ("{{ 'yes' | bool }} {{ 'On' | bool }} {{ '1' | bool }} {{ 'nope' | bool }} {{ 1 | bool }} {{ 0 | bool }} {{ none | bool }}", {}, ANS),
    ("{{ true | ternary('a', 'b') }}{{ 0 | ternary('a', 'b') }}{{ none | ternary('a', 'b', 'n') }}", {}, ANS),
    ("{{ present | mandatory }}", {"present": "here"}, ANS),
    ("{{ 1 | type_debug }} {{ 'x' | type_debug }} {{ [1] | type_debug }} {{ {} | type_debug }} {{ none | type_debug }} {{ 1.5 | type_debug }}", {}, ANS),
    ("{{ [1, [2, [3, [4]]], none, 'x'] | flatten }}|{{ [1, [2, [3, [4]]]] | flatten(levels=1) }}|{{ ['a', ['b'], 'null', 'c'] | flatten }}", {}, ANS),
    ("{{ {'a': 1, 'n': {'x': 1}} | combine({'b': 2, 'n': {'y': 2}}) }}|{{ {'a': 1, 'n': {'x': 1}} | combine({'n': {'y': 2}}, recursive=True) }}", {}, ANS),
    ("{{ 'hello world' | regex_replace('o', '0') }}|{{ 'ab-cd' | regex_replace('(\\\\w+)-(\\\\w+)', '\\\\2_\\\\1') }}|{{ 'AbA' | regex_replace('a', 'x', ignorecase=True) }}", {}, ANS),
    ("{{ 'My Project' | regex_replace('(?P<first>\\\\w+) (?P<second>\\\\w+)', '\\\\g<second>-\\\\g<first>') }}", {}, ANS),
    ("{{ 'version 1.22.3' | regex_search('\\\\d+\\\\.\\\\d+') }}|{{ 'version 1.22.3' | regex_search('(\\\\d+)\\\\.(\\\\d+)', '\\\\2', '\\\\1') }}|{{ 'x' | regex_search('y') }}", {}, ANS),
    ("{{ 'a1b22c333' | regex_findall('\\\\d+') }}|{{ 'k=v, x=y' | regex_findall('(\\\\w)=(\\\\w)') }}|{{ 'Aa' | regex_findall('a', ignorecase=True) }}", {}, ANS),
    ("{{ 'a.b*c' | regex_escape }}", {}, ANS),
    # to_yaml / to_nice_yaml, as PyYAML writes them
    ("{{ d | to_nice_yaml }}", {"d": {"project_name": "My App", "version": "1.0", "count": 3, "ratio": 0.5, "big": 1e20,
        "on": True, "off": None, "empty": "", "tags": ["a", "b c", "yes", "123", "1.5", "null", "2024-01-02"],
        "nested": {"z": [], "y": {}, "x": [{"k": 1, "j": [1, 2]}, "s"]}}}, ANS),
    ("{{ d | to_yaml }}", {"d": {"project_name": "My App", "list": [1, 2, 3], "mixed": [1, {"a": 2}], "flat": {"a": 1, "b": "x"}}}, ANS),
    ("{{ d | to_nice_yaml(indent=2) }}", {"d": {"a": [1, [2, 3]], "b": {"c": {"d": "e"}}}}, ANS),
    ("{{ d | to_nice_yaml }}", {"d": {"colon": "a: b", "hash": "x #y", "lead": " space", "trail": "space ", "dash": "- x", "q": "it's",
        "dq": "say \"hi\"", "star": "*ref", "amp": "&a", "pct": "%x", "at": "@x", "tick": "`x", "brace": "{x}", "comma": "a, b",
        "qm": "? x", "tab": "a\tb", "cr": "a\rb", "uni": "ünï ☃ 😀", "ctrl": "\u0007", "nel": "a\u0085b", "nbsp": "a\u00a0b",
        "dots": "...x", "dashes": "---", "tilde": "~", "eq": "=", "merge": "<<", "Yes": "Yes", "octal": "0o17", "hex": "0x1F",
        "under": "1_000", "sexa": "1:30", "inf": ".inf", "neg": "-1", "plus": "+1", "exp": "1e5", "dotnum": ".5"}}, ANS),
    ("{{ d | to_nice_yaml }}", {"d": {"multi": "line one\nline two\n", "multi2": "a\n\nb", "spacebreak": "a \nb", "breakspace": "a\n b",
        "long": "word " * 30, "longsingle": "it's " * 25, "longdouble": "tab\t " * 20, "longword": "x" * 100}}, ANS),
    ("{{ ['a', 'b'] | to_nice_yaml }}|{{ 'plain' | to_nice_yaml }}|{{ 'yes' | to_nice_yaml }}|{{ 5 | to_nice_yaml }}|{{ [] | to_nice_yaml }}|{{ {} | to_yaml }}", {}, ANS),
    ("{{ d | to_yaml }}", {"d": {"k" * 130: 1, "": 2, "multi\nkey": 3}}, ANS),
    ("{{ d | to_yaml(default_flow_style=False) }}", {"d": {"l": [1, 2], "m": {"a": "b"}}}, ANS),
    ("{{ d | to_yaml }}", {"d": {"l": ["item number " + str(i) for i in range(12)]}}, ANS),
    ("{{ d | to_nice_yaml }}|{{ l | to_yaml }}", _random_strings(), ANS),
]
