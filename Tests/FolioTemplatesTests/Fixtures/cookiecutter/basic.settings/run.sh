#!/bin/sh
echo "my_project"
