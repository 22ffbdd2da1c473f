# shellcheck shell=bash
# Helpers for bin/speech-server. Source after bin/lib/common.sh.

# The Debian packages an engine needs at run time.
ss_server_packages() {
  case "$1" in
    flite) echo "libflite1" ;;
    espeak | kokoro) echo "libespeak-ng1 espeak-ng-data" ;;
    *) ss_die "--engine ($1) must be flite, espeak or kokoro" ;;
  esac
}

# The engine named by --engine X or --engine=X among the arguments (default flite).
ss_server_engine() {
  local engine=flite
  while [ "$#" -gt 0 ]; do
    case "$1" in
      --engine) engine="${2:-}"; shift ;;
      --engine=*) engine="${1#--engine=}" ;;
    esac
    shift
  done
  echo "$engine"
}

ss_server_classpath() {
  echo "$SS_ROOT/server/target/launch/speech-server.jar:$SS_ROOT/server/target/launch/lib/*"
}
