__version__ = "{{ cookiecutter.version }}"
NAME = {{ cookiecutter.project_name | tojson }}
