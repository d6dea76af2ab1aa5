#!/bin/sh
echo "hello_world"
