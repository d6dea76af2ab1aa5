#!/bin/sh
echo "{{ cookiecutter.project_slug }}"
