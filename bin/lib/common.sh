# shellcheck shell=bash
# Shared by every launcher in bin/: finds a JDK >= 25 and Maven, installs the Debian packages a
# command needs (as root) or prints the exact command, and rebuilds the project when its sources
# are newer than the last build. Source it; do not run it.

SS_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SS_MIN_JAVA=25

ss_die() {
  echo "error: $*" >&2
  exit 1
}

# Prints the feature version (25, 17, ...) of the JDK at $1, or nothing.
ss_java_major() {
  local home="$1"
  if [ -f "$home/release" ]; then
    sed -n 's/^JAVA_VERSION="\([0-9][0-9]*\).*/\1/p' "$home/release" | head -n 1
    return
  fi
  "$home/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9][0-9]*\).*/\1/p' | head -n 1
}

# Exports JAVA_HOME as the first JDK >= 25 among $JAVA_HOME and the system JVM directory.
ss_find_jdk() {
  local candidate major
  for candidate in "${JAVA_HOME:-}" /usr/lib/jvm/* /usr/local/lib/jvm/* /opt/java/*; do
    [ -n "$candidate" ] && [ -x "$candidate/bin/java" ] && [ -x "$candidate/bin/javac" ] || continue
    major="$(ss_java_major "$candidate")"
    if [ -n "$major" ] && [ "$major" -ge "$SS_MIN_JAVA" ]; then
      export JAVA_HOME="$candidate"
      export PATH="$JAVA_HOME/bin:$PATH"
      return 0
    fi
  done
  ss_die "no JDK $SS_MIN_JAVA or newer found (looked at JAVA_HOME='${JAVA_HOME:-}' and /usr/lib/jvm/*).
  Install one (for example Temurin 25 from https://adoptium.net) or point JAVA_HOME at it."
}

# Installs the named Debian packages when missing: with apt-get as root, otherwise prints the
# exact command and fails.
ss_ensure_packages() {
  local missing=() pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  [ "${#missing[@]}" -eq 0 ] && return 0
  if ! command -v apt-get >/dev/null 2>&1; then
    ss_die "missing system packages: ${missing[*]}; this machine has no apt-get, install their equivalents by hand"
  fi
  if [ "$(id -u)" -ne 0 ]; then
    ss_die "missing system packages: ${missing[*]}
  run: sudo apt-get install -y ${missing[*]}"
  fi
  echo "installing system packages: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y -qq "${missing[@]}" >&2; then
    apt-get update -qq >&2 && apt-get install -y -qq "${missing[@]}" >&2 ||
      ss_die "apt-get could not install ${missing[*]}"
  fi
}

ss_find_maven() {
  command -v mvn >/dev/null 2>&1 && return 0
  ss_ensure_packages maven
  command -v mvn >/dev/null 2>&1 || ss_die "Maven (mvn) is not on PATH; install Maven 3.8.7 or newer"
}

# True when a module's launch classpath is missing or older than any source or POM.
ss_build_is_stale() {
  local stamp="$1"
  [ -f "$stamp" ] || return 0
  [ -n "$(find "$SS_ROOT" -path "$SS_ROOT/.git" -prune -o -name target -prune -o -name node_modules -prune \
    -o \( -name '*.java' -o -name 'pom.xml' -o -path '*/src/main/resources/*' \) -newer "$stamp" -print -quit)" ]
}

# Builds (without tests) when stale, so the launcher runs what the sources say.
ss_build_if_needed() {
  local stamp="$SS_ROOT/target/launch.stamp"
  ss_build_is_stale "$stamp" || return 0
  ss_find_maven
  echo "building SpeechScale (first run or sources changed; takes a minute)..." >&2
  # copied dependencies are replaced, not accumulated: a removed library must not linger
  rm -rf "$SS_ROOT/cli/target/launch/lib" "$SS_ROOT/server/target/launch/lib"
  (cd "$SS_ROOT" && mvn -B -q -ntp -Dstyle.color=never -DskipTests -Dspotless.check.skip=true -Denforcer.skip=true package >&2) ||
    ss_die "the build failed; run bin/test to see why"
  mkdir -p "$(dirname "$stamp")" && touch "$stamp"
}

# The classpath of the command-line module: its jar plus every dependency copied beside it.
ss_cli_classpath() {
  echo "$SS_ROOT/cli/target/launch/speechscale-cli.jar:$SS_ROOT/cli/target/launch/lib/*"
}

# The jars local instances run from, listed one by one (the server's own launch classpath, 18 jars,
# not the command line's 99: fewer jars to open at start, and the JDK's AOT cache needs a list
# without wildcards; see measurements/cold-start.md).
ss_instance_classpath() {
  local cp="$SS_ROOT/server/target/launch/speech-server.jar" jar
  for jar in "$SS_ROOT"/server/target/launch/lib/*.jar; do
    cp="$cp:$jar"
  done
  echo "$cp"
}

ss_java() {
  # CDK synthesis runs jsii on the machine's node; its end-of-life banner is not ours to print
  export JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION="${JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION:-20}"
  # ONNX Runtime's telemetry off in every JVM a launcher starts (the server sets it again itself,
  # server/NativeEnvironment.java; this covers anything else that loads ONNX Runtime)
  export ORT_DISABLE_TELEMETRY=1
  exec "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow "$@"
}
