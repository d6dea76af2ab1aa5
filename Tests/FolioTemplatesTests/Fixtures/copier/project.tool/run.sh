#!/bin/sh
echo my-tool
