# ci/lib/stages.sh: `stage COMMAND...` runs one stage of a CI script and
# prints its wall-clock time when it ends; `stages_report` prints every
# stage's time and the total. Sourced by .ci/run and ci/test-long.
stage_timings=()
stage() {
  local started=$SECONDS took
  echo "==== stage: $*"
  "$@"
  took=$((SECONDS - started))
  stage_timings+=("$(printf '%3d min %02d s  %s' $((took / 60)) $((took % 60)) "$*")")
  echo "==== stage done in $((took / 60)) min $((took % 60)) s: $*"
}
stages_report() {
  echo "==== every stage passed, in $((SECONDS / 60)) min $((SECONDS % 60)) s:"
  printf '%s\n' "${stage_timings[@]}"
}
