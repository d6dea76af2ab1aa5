#!/bin/sh
# Makes made/ (what `copier copy` wrote at v1.0.0, then the user's commit) and updated/ (what `copier update` to
# v2.0.0 left) from template-v1/ and template-v2/. Run from this folder with copier 9.19.1 on PATH:
#   python3 -m venv /tmp/jv && /tmp/jv/bin/pip install copier==9.19.1 && PATH=/tmp/jv/bin:$PATH sh make.sh
set -eu
here=$(pwd); work=$(mktemp -d)
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com GIT_CONFIG_GLOBAL=/dev/null
mkdir "$work/tpl" && cp -r template-v1/. "$work/tpl/" && cd "$work/tpl" && git init -q -b main && git add -A && git commit -qm v1 && git tag v1.0.0
cp -r "$here/template-v2/." "$work/tpl/" && git add -A && git commit -qm v2 && git tag v2.0.0
cd "$work" && copier copy --trust --defaults --data name=tool --vcs-ref v1.0.0 "$work/tpl" proj
cd proj && git init -q -b main && git add -A && git commit -qm made
printf 'old_key = 1\n' > settings.cfg && printf '# tool\n\nline one\nmine\n' > README.md && git add -A && git commit -qm edit
rm -rf "$here/made" "$here/updated" && mkdir "$here/made" && git archive HEAD | tar -x -C "$here/made"
copier update --trust --defaults
rm -rf .git && mkdir "$here/updated" && cp -r . "$here/updated/"
cd "$here" && rm -rf "$work"
