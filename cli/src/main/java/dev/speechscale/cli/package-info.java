/**
 * The command-line adapters {@code tts-bench} and {@code speech-infra}: picocli commands that
 * parse, call the core modules and print. No arithmetic lives here.
 *
 * <p>Contract: every command is a {@code Callable<Integer>} returning 0 (ok), 1 (refusal or
 * failure, with a message that names the thing, the value and the fix) or 2 (usage error); stdout
 * carries results, stderr carries progress and errors; {@code --json} prints the artifact for
 * machines.
 *
 * <p>Options: an {@code @Option} declares a flag's name (spelled in {@code
 * dev.speechscale.chain.Flags}), default and label; what its {@code --help} says is in {@code
 * src/main/resources/dev/speechscale/cli/flags.properties}, under the flag's name without dashes
 * (or {@code <tool>.<command>.<name>} where one command's flag means something else). A flag
 * several commands share with one meaning is declared once, in a {@code @Mixin} class.
 */
package dev.speechscale.cli;
