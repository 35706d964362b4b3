#!/usr/bin/env bash
# Install (or uninstall) the Spectacular Bid kiosk as a systemd service on
# Raspberry Pi OS Bookworm (Python 3.11) or Trixie (Python 3.13).
#
#   sudo systemd/install.sh                 install or update, then start the kiosk
#   sudo systemd/install.sh --pin 4821      ... and set the owner PIN (4-8 digits); without
#                                           --pin it is asked for (a terminal) or generated
#                                           and printed once, unless one is already set
#   sudo systemd/install.sh --club URL --club-token-file F
#                                           join the club hub at URL: the table's token (printed
#                                           by "python -m club kiosks add NAME" on the hub) from F,
#                                           or asked for on a terminal; stored like the owner PIN
#   sudo systemd/install.sh --uninstall     remove what the installer put in place
#   systemd/install.sh --dry-run            print every action, change nothing
#   systemd/install.sh --root DIR           act inside DIR instead of / (tests): apt, users,
#                                           the venv, chown, modprobe, udevadm and systemctl
#                                           are printed as "skip (--root)", never run
#
# Idempotent: a second run finds everything in place and reports "no changes".
# See docs/install.md.
set -euo pipefail
umask 022

readonly APP=spectacular-bid
readonly KIOSK_USER=kiosk
readonly KIOSK_GROUPS=(gpio dialout video render input)
readonly APP_DIR=/opt/$APP
readonly VENV_DIR=$APP_DIR/venv
readonly STAMP_FILE=$APP_DIR/installed-source.sha256
readonly CONFIG_DIR=/etc/$APP
readonly CONFIG_FILE=$CONFIG_DIR/config.toml
# The owner PIN's salted hash (python -m kiosk.owner): readable by root and the kiosk group only.
readonly PIN_FILE=$CONFIG_DIR/owner-pin
# The table's club hub token (python -m club kiosks add on the hub): root and the kiosk group only.
readonly CLUB_TOKEN_FILE=$CONFIG_DIR/club-token
# With --club: a drop-in that lets the kiosk reach the hub (the unit allows no IP sockets).
readonly CLUB_DROPIN=/etc/systemd/system/$APP.service.d/club.conf
readonly STATE_DIR=/var/lib/$APP
readonly CACHE_DIR=/var/cache/$APP
readonly UNIT_FILE=/etc/systemd/system/$APP.service
readonly UDEV_RULE=/etc/udev/rules.d/99-$APP-panel.rules
readonly MODULES_FILE=/etc/modules-load.d/$APP.conf
readonly MODULES=(drm cdc_acm usbserial)
# python3-venv: the venv; python3-lgpio: GPIO (Trixie's Python 3.13 has no lgpio wheel, so
# the venv sees the Debian package through --system-site-packages, on Bookworm too);
# the libraries SDL's KMSDRM video driver loads at run time. No fonts: the kiosk ships its
# own (kiosk/assets/fonts, docs/fonts.md).
readonly APT_PACKAGES=(
    python3-venv python3-lgpio
    libdrm2 libgbm1 libegl1 libgles2
)

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
readonly SRC
DRY_RUN=0
UNINSTALL=0
PURGE=0
ROOT=
PIN=
PIN_GIVEN=0
CLUB_URL=
CLUB_TOKEN_SOURCE=
CLUB_CHANGED=0
CHANGES=0
TMP_DIR=

usage() {
    sed -n '2,20s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
    printf '%s\n' "Options: --pin PIN, --club URL [--club-token-file FILE], --dry-run," \
        "--uninstall [--purge: also the config, state, cache and user], --root DIR, -h/--help"
}

die() {
    printf 'install.sh: %s\n' "$*" >&2
    exit 1
}

step() { printf '==> %s\n' "$*"; }
note() { printf '    %s\n' "$*"; }

# The arguments as one shell-quoted line (plain words stay unquoted).
quoted() {
    local arg quoted_arg out=
    for arg in "$@"; do
        if [[ $arg =~ ^[][A-Za-z0-9_./,:=@%+-]+$ ]]; then
            out+=" $arg"
        else
            printf -v quoted_arg '%q' "$arg"
            out+=" $quoted_arg"
        fi
    done
    printf '%s' "${out# }"
}

# Run a command that changes the target (counted); under --dry-run only print it.
change() {
    CHANGES=$((CHANGES + 1))
    if ((DRY_RUN)); then
        printf 'would run: %s\n' "$(quoted "$@")"
        return 0
    fi
    printf '+ %s\n' "$(quoted "$@")"
    "$@"
}

# A command acting on the live system (packages, users, kernel, udev, systemd):
# printed but never run under --root, since it cannot be confined to that directory.
system() {
    if [[ -n $ROOT ]]; then
        printf 'skip (--root): %s\n' "$(quoted "$@")"
        return 0
    fi
    change "$@"
}

target() { printf '%s%s' "$ROOT" "$1"; }

# Install SRC as DEST (a path on the target) with MODE unless it is already identical.
# Returns 0 when it changed (or would change) something, 1 when DEST was up to date.
put_file() {
    local src=$1 dest mode=$3
    dest=$(target "$2")
    if [[ -f $dest && ! -L $dest ]] && cmp -s "$src" "$dest" && [[ $(stat -c %a "$dest") == "$mode" ]]; then
        note "unchanged: $2"
        return 1
    fi
    change install -D -m "$mode" "$src" "$dest"
    return 0
}

remove_path() {
    local path
    path=$(target "$1")
    if [[ -e $path || -L $path ]]; then
        change rm -rf -- "$path"
    fi
}

remove_dir_if_empty() {
    local path
    path=$(target "$1")
    if [[ -d $path ]] && [[ -z $(ls -A -- "$path") ]]; then
        change rmdir -- "$path"
    fi
}

cleanup() {
    if [[ -n $TMP_DIR ]]; then
        rm -rf -- "$TMP_DIR"
    fi
}

# The project's files as a deterministic tar stream (no VCS, venv, build or cache files).
source_tar() {
    tar -C "$SRC" --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner \
        --exclude=./.git --exclude=./.venv --exclude=./venv --exclude=./build --exclude=./dist \
        --exclude='*.egg-info' --exclude=__pycache__ --exclude='*.pyc' --exclude=.pytest_cache \
        --exclude=.hypothesis --exclude=.mypy_cache -cf - .
}

# Write the default configuration to $1: from the installed kiosk when it runs,
# otherwise the DEFAULT_CONFIG_TOML text read from kiosk/config.py without importing it.
default_config() {
    local out=$1 py
    py=$(target "$VENV_DIR/bin/python")
    if [[ -x $py ]] && (cd / && "$py" -P -s -m kiosk.config --print-default) >"$out" 2>/dev/null && [[ -s $out ]]; then
        return 0
    fi
    python3 - "$SRC/kiosk/config.py" >"$out" <<'PY' || die "cannot get the default configuration from kiosk/config.py"
import ast
import sys

with open(sys.argv[1], encoding="utf-8") as source:
    tree = ast.parse(source.read())
for node in tree.body:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
    if any(isinstance(t, ast.Name) and t.id == "DEFAULT_CONFIG_TOML" for t in targets):
        sys.stdout.write(ast.literal_eval(node.value))
        sys.exit(0)
sys.exit("DEFAULT_CONFIG_TOML not found")
PY
}

describe_system() {
    local os=unknown py
    if [[ -r /etc/os-release ]]; then
        os=$(sed -n 's/^PRETTY_NAME=//p' /etc/os-release | tr -d '"')
    fi
    py=$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2]); sys.exit(sys.version_info < (3, 11))' 2>/dev/null) ||
        die "python3 ${py:-is missing; it} must be 3.11 or newer"
    note "system: $os, Python $py, source: $SRC"
    if [[ -n $ROOT ]]; then
        note "acting inside $ROOT (--root)"
    fi
    if ((DRY_RUN)); then
        note "dry run: nothing will be changed"
    fi
}

install_packages() {
    step "apt packages"
    if [[ -n $ROOT ]]; then
        system apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"
        return
    fi
    local missing=() pkg
    for pkg in "${APT_PACKAGES[@]}"; do
        if ! dpkg-query -W -f='${db:Status-Abbrev}' "$pkg" 2>/dev/null | grep -q '^ii'; then
            missing+=("$pkg")
        fi
    done
    if ((${#missing[@]} == 0)); then
        note "all installed: ${APT_PACKAGES[*]}"
        return
    fi
    system apt-get update
    system env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}

install_user() {
    step "user $KIOSK_USER in groups ${KIOSK_GROUPS[*]}"
    local group groups_csv
    groups_csv=$(IFS=,; printf '%s' "${KIOSK_GROUPS[*]}")
    if [[ -n $ROOT ]]; then
        for group in "${KIOSK_GROUPS[@]}"; do
            system groupadd --system "$group"
        done
        system useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
            --shell /usr/sbin/nologin --comment "Spectacular Bid kiosk" --groups "$groups_csv" "$KIOSK_USER"
        return
    fi
    # The unit's SupplementaryGroups= fails the start (216/GROUP) if a group is missing;
    # gpio exists on Raspberry Pi OS, the others on every Debian.
    for group in "${KIOSK_GROUPS[@]}"; do
        if ! getent group "$group" >/dev/null; then
            system groupadd --system "$group"
        fi
    done
    if ! id "$KIOSK_USER" >/dev/null 2>&1; then
        system useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
            --shell /usr/sbin/nologin --comment "Spectacular Bid kiosk" --groups "$groups_csv" "$KIOSK_USER"
        return
    fi
    local have missing=()
    have=" $(id -nG "$KIOSK_USER") "
    for group in "${KIOSK_GROUPS[@]}"; do
        if [[ $have != *" $group "* ]]; then
            missing+=("$group")
        fi
    done
    if ((${#missing[@]} == 0)); then
        note "user $KIOSK_USER exists with every group"
        return
    fi
    system usermod --append --groups "$(IFS=,; printf '%s' "${missing[*]}")" "$KIOSK_USER"
}

# Sets SOURCE_CHANGED=1 when the project was (re)installed into the venv.
install_venv() {
    step "virtual environment $VENV_DIR"
    SOURCE_CHANGED=0
    local venv stamp hash
    venv=$(target "$VENV_DIR")
    stamp=$(target "$STAMP_FILE")
    if [[ -n $ROOT ]]; then
        system python3 -m venv --system-site-packages "$venv"
        system "$venv/bin/python" -m pip install --no-cache-dir --constraint "$SRC/constraints.txt" "$SRC"
        return
    fi
    if [[ ! -x $venv/bin/python ]]; then
        system python3 -m venv --system-site-packages "$venv"
    elif ! grep -qs '^include-system-site-packages = true' "$venv/pyvenv.cfg"; then
        note "warning: $VENV_DIR does not see the system's python3-lgpio; remove it and run again"
    fi
    hash=$(source_tar | sha256sum | cut -d' ' -f1)
    if [[ -f $stamp && $(<"$stamp") == "$hash" ]]; then
        note "project unchanged since the last install ($hash)"
        return
    fi
    SOURCE_CHANGED=1
    # Build from a copy: pip builds in-tree and would leave root-owned files in the clone.
    local build=$TMP_DIR/source
    mkdir -p "$build"
    source_tar | tar -C "$build" -xf -
    system "$venv/bin/python" -m pip install --no-cache-dir --constraint "$SRC/constraints.txt" --upgrade "$build"
    printf '%s\n' "$hash" >"$TMP_DIR/stamp"
    put_file "$TMP_DIR/stamp" "$STAMP_FILE" 644 || true
}

install_config() {
    step "configuration $CONFIG_FILE"
    if [[ -e $(target "$CONFIG_FILE") ]]; then
        note "kept the existing file (python -m kiosk.config --check $CONFIG_FILE reports problems)"
    else
        default_config "$TMP_DIR/config.toml"
        change install -D -m 644 "$TMP_DIR/config.toml" "$(target "$CONFIG_FILE")"
    fi
    # The owner's settings screen saves config.toml (a temporary file beside it, then a rename):
    # the folder is group-writable for kiosk, sticky so that only root can replace owner-pin,
    # and the kiosk owns config.toml. The content of an existing file is never touched.
    set_mode 1775 "$CONFIG_DIR"
    set_owner root "$KIOSK_USER" "$CONFIG_DIR"
    set_owner "$KIOSK_USER" "$KIOSK_USER" "$CONFIG_FILE"
}

# chmod MODE PATH (a path on the target) unless it already has that mode.
set_mode() {
    local mode=$1 path
    path=$(target "$2")
    if [[ ! -e $path ]] || [[ $(stat -c %a "$path") != "$mode" ]]; then
        change chmod "$mode" "$path"
    fi
}

# chown USER:GROUP PATH (a path on the target) unless it already has them; only printed under --root.
set_owner() {
    local owner=$1:$2 path
    path=$(target "$3")
    if [[ -z $ROOT && -e $path ]] && [[ $(stat -c %U:%G "$path") == "$owner" ]]; then
        return 0
    fi
    system chown "$owner" "$path"
}

# python -m kiosk.owner from this source tree with the system's python3 (stdlib only; the
# working directory and ~/.local stay off sys.path).
owner_tool() {
    PYTHONPATH=$SRC python3 -P -s -m kiosk.owner "$@"
}

valid_pin() { [[ $1 =~ ^[0-9]{4,8}$ ]]; }

# Ask for a new PIN twice on the terminal (not echoed); prints it.
prompt_pin() {
    local first second try
    for try in 1 2 3; do
        read -rs -p "Owner PIN for the kiosk's settings and exit (4-8 digits): " first </dev/tty
        printf '\n' >/dev/tty
        if ! valid_pin "$first"; then
            printf '%s\n' "a PIN is 4 to 8 digits (0-9); try again" >/dev/tty
            continue
        fi
        read -rs -p "The same PIN again: " second </dev/tty
        printf '\n' >/dev/tty
        if [[ $first == "$second" ]]; then
            printf '%s' "$first"
            return 0
        fi
        printf '%s\n' "the two PINs differ; try again ($try of 3)" >/dev/tty
    done
    die "no owner PIN set (run it again, or pass --pin PIN)"
}

install_owner_pin() {
    step "owner PIN $PIN_FILE"
    local dest how='' pin=''
    dest=$(target "$PIN_FILE")
    if [[ -n $PIN ]] && [[ -f $dest ]] && printf '%s\n' "$PIN" | owner_tool check "$dest" >/dev/null 2>&1; then
        note "unchanged: $PIN_FILE already holds that PIN"
    elif [[ -z $PIN && -f $dest ]]; then
        note "kept the existing owner PIN (--pin PIN sets a new one)"
    else
        if [[ -n $PIN ]]; then
            how="from --pin"
            pin=$PIN
        elif [[ -t 0 ]] && ((!DRY_RUN)); then
            how="as typed"
            pin=$(prompt_pin)
        else
            how="generated"
            if ((!DRY_RUN)); then
                pin=$(owner_tool generate) || die "cannot generate an owner PIN"
            fi
        fi
        note "the owner PIN ($how) is stored as a salted hash, never in clear"
        if ((DRY_RUN)); then
            : >"$TMP_DIR/owner-pin"
        else
            printf '%s\n' "$pin" | owner_tool hash >"$TMP_DIR/owner-pin" || die "cannot hash the owner PIN"
        fi
        change install -D -m 640 "$TMP_DIR/owner-pin" "$dest"
    fi
    if [[ -e $dest ]]; then
        set_mode 640 "$PIN_FILE"
    fi
    set_owner root "$KIOSK_USER" "$PIN_FILE"
    if [[ $how == generated ]] && ((!DRY_RUN)); then
        note "owner PIN: $pin (generated: write it down now, it is not shown again;"
        note "           sudo systemd/install.sh --pin NNNN sets another)"
    fi
}

valid_club_url() { [[ $1 =~ ^https?://[A-Za-z0-9._~%:@-]+(\[[0-9A-Fa-f:.]+\](:[0-9]+)?)?(/[^[:space:]?#\"]*)?$ ]]; }

valid_token() { [[ $1 =~ ^[!-~]{8,512}$ ]]; }

# Ask for the table's hub token on the terminal (not echoed); prints it.
prompt_token() {
    local token try
    for try in 1 2 3; do
        read -rs -p "This table's club token (python -m club kiosks add NAME on the hub prints it): " token </dev/tty
        printf '\n' >/dev/tty
        if valid_token "$token"; then
            printf '%s' "$token"
            return 0
        fi
        printf '%s\n' "a token is one word of 8 to 512 printable characters; try again ($try of 3)" >/dev/tty
    done
    die "no club token stored (run it again, or pass --club-token-file FILE)"
}

# --club URL: the table's token stored like the owner PIN (0640, root and the kiosk group), and
# [club] url and token_file written into config.toml in place (its comments and other keys kept).
install_club() {
    [[ -n $CLUB_URL ]] || return 0
    step "club hub $CLUB_URL"
    local dest token='' how=''
    dest=$(target "$CLUB_TOKEN_FILE")
    if [[ -n $CLUB_TOKEN_SOURCE ]]; then
        how="from $CLUB_TOKEN_SOURCE"
        token=$(tr -d '\r\n' <"$CLUB_TOKEN_SOURCE")
    elif [[ -f $dest ]]; then
        note "kept the stored club token (--club-token-file FILE stores another)"
    elif [[ -t 0 ]] && ((!DRY_RUN)); then
        how="as typed"
        token=$(prompt_token)
    elif ((!DRY_RUN)); then
        die "--club needs this table's token: --club-token-file FILE, or run it on a terminal"
    fi
    if [[ -n $how ]]; then
        printf '%s\n' "$token" >"$TMP_DIR/club-token"
        if [[ -f $dest ]] && cmp -s "$TMP_DIR/club-token" "$dest"; then
            note "unchanged: $CLUB_TOKEN_FILE already holds that token"
        else
            note "the club token ($how) is stored in $CLUB_TOKEN_FILE (root and the $KIOSK_USER group only)"
            change install -D -m 640 "$TMP_DIR/club-token" "$dest"
            CLUB_CHANGED=1
        fi
    fi
    if [[ -e $dest ]]; then
        set_mode 640 "$CLUB_TOKEN_FILE"
    fi
    set_owner root "$KIOSK_USER" "$CLUB_TOKEN_FILE"
    local config current
    config=$(target "$CONFIG_FILE")
    current=$TMP_DIR/config.current
    if [[ -f $config ]]; then
        cp -- "$config" "$current"
    else
        default_config "$current"
    fi
    # the kiosk's own venv has tomlkit (the editor that keeps every TOML form); without it (--root, a
    # dry run before the venv exists) the two keys are written line by line into a plain [club] table
    # (the default file's form), appended when there is none, and read back; any other form is refused
    local py=python3
    [[ -x $(target "$VENV_DIR")/bin/python ]] && py=$(target "$VENV_DIR")/bin/python
    PYTHONPATH=$SRC "$py" -P -s - "$current" "$CLUB_URL" "$CLUB_TOKEN_FILE" >"$TMP_DIR/config.club" <<'PY' ||
import json
import re
import sys
import tomllib

with open(sys.argv[1], encoding="utf-8", newline="") as source:
    text = source.read()
values = {"url": sys.argv[2], "token_file": sys.argv[3]}
try:
    from kiosk.owner import edit_text

    edited = edit_text(text, {f"club.{k}": v for k, v in values.items()})
except ModuleNotFoundError:
    end = "\r\n" if "\r\n" in text else "\n"
    lines = text.splitlines()
    header = next((i for i, line in enumerate(lines) if re.fullmatch(r"\s*\[\s*club\s*\]\s*(#.*)?", line)), None)
    if header is None:
        lines += ["", "[club]"]
        header = len(lines) - 1
    stop = next((i for i in range(header + 1, len(lines)) if re.match(r"\s*\[", lines[i])), len(lines))
    for key, value in values.items():
        line = f"{key} = {json.dumps(value)}"
        found = next((i for i in range(header + 1, stop) if re.match(rf"\s*{key}\s*=", lines[i])), None)
        if found is None:
            lines.insert(stop, line)
            stop += 1
        else:
            kept = re.fullmatch(r"""\s*\w+\s*=\s*"(?:[^"\\]|\\.)*"(\s*#.*)?""", lines[found])
            comment = kept.group(1) if kept and kept.group(1) else ""
            lines[found] = line + (" " * max(1, len(lines[found]) - len(comment) - len(line)) + comment.lstrip()
                                   if comment else "")
    edited = end.join(lines) + end
    club = tomllib.loads(edited).get("club", {})
    if any(club.get(k) != v for k, v in values.items()):
        sys.exit("the [club] table is not written in a form this can edit without tomlkit")
sys.stdout.write(edited)
PY
        die "cannot write [club] into $CONFIG_FILE (python -m kiosk.config --check $CONFIG_FILE says why)"
    if [[ -f $config ]] && cmp -s "$TMP_DIR/config.club" "$config"; then
        note "unchanged: $CONFIG_FILE already names this hub"
    else
        note "[club] url = \"$CLUB_URL\" in $CONFIG_FILE"
        change install -D -m 644 "$TMP_DIR/config.club" "$config"
        set_owner "$KIOSK_USER" "$KIOSK_USER" "$CONFIG_FILE"
        CLUB_CHANGED=1
    fi
    printf '%s\n' "# Written by install.sh --club: the kiosk may open IP sockets to reach the club hub" \
        "# (docs/club.md); the unit itself allows none." "[Service]" \
        "RestrictAddressFamilies=AF_UNIX AF_NETLINK AF_INET AF_INET6" "IPAddressDeny=" >"$TMP_DIR/club.conf"
    if put_file "$TMP_DIR/club.conf" "$CLUB_DROPIN" 644; then
        system systemctl daemon-reload
        CLUB_CHANGED=1
    fi
}

install_system_files() {
    step "kernel modules, udev rule, systemd unit"
    if put_file "$SRC/systemd/modules-load.conf" "$MODULES_FILE" 644; then
        system modprobe --all "${MODULES[@]}" || note "warning: could not load ${MODULES[*]} now; they load at the next boot"
    fi
    # The rule is an example to adapt (USB IDs), so an existing one is kept, like the config.
    if [[ -e $(target "$UDEV_RULE") ]]; then
        note "kept the existing $UDEV_RULE"
    else
        change install -D -m 644 "$SRC/systemd/99-$APP-panel.rules" "$(target "$UDEV_RULE")"
        system udevadm control --reload
        system udevadm trigger --subsystem-match=tty --action=add
    fi
    UNIT_CHANGED=0
    if put_file "$SRC/systemd/$APP.service" "$UNIT_FILE" 644; then
        UNIT_CHANGED=1
        system systemctl daemon-reload
    fi
}

start_service() {
    step "service $APP"
    if [[ -n $ROOT ]]; then
        system systemctl enable --now "$APP.service"
        return
    fi
    if ! systemctl is-enabled --quiet "$APP.service" 2>/dev/null; then
        system systemctl enable "$APP.service"
    fi
    if ! systemctl is-active --quiet "$APP.service" 2>/dev/null; then
        system systemctl start "$APP.service"
    elif ((UNIT_CHANGED || SOURCE_CHANGED || CLUB_CHANGED)); then
        system systemctl restart "$APP.service"
    else
        note "enabled and running"
    fi
}

do_install() {
    [[ -f $SRC/pyproject.toml && -f $SRC/kiosk/config.py ]] || die "$SRC is not the Spectacular Bid source tree"
    install_packages
    install_user
    install_venv
    install_config
    install_owner_pin
    install_club
    install_system_files
    start_service
}

do_uninstall() {
    step "service $APP"
    if [[ -e $(target "$UNIT_FILE") ]]; then
        system systemctl disable --now "$APP.service"
    fi
    step "systemd unit, udev rule, kernel modules list"
    if [[ -e $(target "$UNIT_FILE") || -e $(target "$CLUB_DROPIN") ]]; then
        remove_path "$UNIT_FILE"
        remove_path "$CLUB_DROPIN"
        remove_dir_if_empty "$(dirname "$CLUB_DROPIN")"
        system systemctl daemon-reload
    fi
    if [[ -e $(target "$UDEV_RULE") ]]; then
        if ((PURGE)) || cmp -s "$SRC/systemd/99-$APP-panel.rules" "$(target "$UDEV_RULE")"; then
            remove_path "$UDEV_RULE"
            system udevadm control --reload
        else
            note "kept $UDEV_RULE: it was edited (--purge removes it)"
        fi
    fi
    remove_path "$MODULES_FILE"
    step "program $APP_DIR"
    remove_path "$APP_DIR"
    step "configuration $CONFIG_FILE"
    local config
    config=$(target "$CONFIG_FILE")
    if [[ -e $config ]]; then
        default_config "$TMP_DIR/config.toml"
        if ((PURGE)) || cmp -s "$TMP_DIR/config.toml" "$config"; then
            remove_path "$CONFIG_FILE"
        else
            note "kept $CONFIG_FILE: it was edited (--purge removes it)"
        fi
    fi
    remove_path "$PIN_FILE"
    remove_path "$CLUB_TOKEN_FILE"
    remove_dir_if_empty "/etc/$APP"
    if ((PURGE)); then
        step "state, cache and user $KIOSK_USER (--purge)"
        remove_path "$STATE_DIR"
        remove_path "$CACHE_DIR"
        if [[ -n $ROOT ]] || id "$KIOSK_USER" >/dev/null 2>&1; then
            system userdel "$KIOSK_USER"
        fi
    else
        note "kept user $KIOSK_USER and $STATE_DIR (--purge removes them)"
    fi
    note "kept the apt packages: ${APT_PACKAGES[*]}"
}

main() {
    while (($#)); do
        case $1 in
            --dry-run) DRY_RUN=1 ;;
            --uninstall) UNINSTALL=1 ;;
            --purge) PURGE=1 ;;
            --root)
                (($# >= 2)) || die "--root needs a directory"
                ROOT=$2
                shift
                ;;
            --root=*) ROOT=${1#--root=} ;;
            --pin)
                (($# >= 2)) || die "--pin needs a PIN (4 to 8 digits)"
                PIN=$2
                PIN_GIVEN=1
                shift
                ;;
            --pin=*)
                PIN=${1#--pin=}
                PIN_GIVEN=1
                ;;
            --club)
                (($# >= 2)) || die "--club needs the hub's URL (http://host:port)"
                CLUB_URL=$2
                shift
                ;;
            --club=*) CLUB_URL=${1#--club=} ;;
            --club-token-file)
                (($# >= 2)) || die "--club-token-file needs a file"
                CLUB_TOKEN_SOURCE=$2
                shift
                ;;
            --club-token-file=*) CLUB_TOKEN_SOURCE=${1#--club-token-file=} ;;
            -h | --help)
                usage
                return 0
                ;;
            *) die "unknown option $1 (see --help)" ;;
        esac
        shift
    done
    if ((PURGE && !UNINSTALL)); then
        die "--purge only goes with --uninstall"
    fi
    if ((PIN_GIVEN && UNINSTALL)); then
        die "--pin does not go with --uninstall"
    fi
    if ((PIN_GIVEN)) && ! valid_pin "$PIN"; then
        die "--pin: a PIN is 4 to 8 digits (0-9)"
    fi
    if [[ -n $CLUB_URL || -n $CLUB_TOKEN_SOURCE ]] && ((UNINSTALL)); then
        die "--club does not go with --uninstall"
    fi
    if [[ -n $CLUB_TOKEN_SOURCE && -z $CLUB_URL ]]; then
        die "--club-token-file goes with --club URL"
    fi
    if [[ -n $CLUB_URL ]] && ! valid_club_url "$CLUB_URL"; then
        die "--club: the hub's address is an http:// or https:// URL, like http://hub.local:8022"
    fi
    if [[ -n $CLUB_TOKEN_SOURCE ]]; then
        [[ -f $CLUB_TOKEN_SOURCE && -r $CLUB_TOKEN_SOURCE ]] || die "--club-token-file: cannot read $CLUB_TOKEN_SOURCE"
        valid_token "$(tr -d '\r\n' <"$CLUB_TOKEN_SOURCE")" ||
            die "--club-token-file: $CLUB_TOKEN_SOURCE does not hold one token (one line of printable characters)"
    fi
    if [[ -n $ROOT ]]; then
        [[ -d $ROOT ]] || die "--root $ROOT is not a directory"
        ROOT=$(cd "$ROOT" && pwd)
        if [[ $ROOT == / ]]; then
            ROOT=
        fi
    fi
    if [[ -n $CLUB_URL && -z $CLUB_TOKEN_SOURCE && ! -f $(target "$CLUB_TOKEN_FILE") ]] && [[ ! -t 0 ]] && ((!DRY_RUN)); then
        die "--club needs this table's token: --club-token-file FILE, or run it on a terminal"
    fi
    if [[ -z $ROOT ]] && ((!DRY_RUN)) && ((EUID != 0)); then
        die "run it as root: sudo $0 (with the same options)"
    fi
    TMP_DIR=$(mktemp -d)
    trap cleanup EXIT

    describe_system
    if ((UNINSTALL)); then
        do_uninstall
    else
        do_install
    fi
    if ((CHANGES == 0)); then
        step "no changes: everything was already in place"
    elif ((DRY_RUN)); then
        step "$CHANGES change(s) would be made"
    else
        step "$CHANGES change(s) made"
    fi
    if ((!UNINSTALL && !DRY_RUN)) && [[ -z $ROOT ]]; then
        note "logs: journalctl -u $APP -f    status: systemctl status $APP"
    fi
}

main "$@"
