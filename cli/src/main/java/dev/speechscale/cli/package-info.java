/**
 * The command-line adapters {@code tts-bench} and {@code speech-infra}: picocli commands that
 * parse, call the core modules and print. No arithmetic lives here.
 *
 * <p>Contract: every command is a {@code Callable<Integer>} returning 0 (ok), 1 (refusal or
 * failure, with a message that names the thing, the value and the fix) or 2 (usage error); stdout
 * carries results, stderr carries progress and errors; {@code --json} prints the artifact for
 * machines.
 */
package dev.speechscale.cli;
