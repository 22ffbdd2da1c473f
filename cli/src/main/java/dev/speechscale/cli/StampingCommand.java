package dev.speechscale.cli;

import dev.speechscale.platform.NanoClock;
import java.util.concurrent.Callable;

/**
 * A command that writes an artifact stamped with a time: {@code SOURCE_DATE_EPOCH}'s when it is set
 * ({@link SourceDateEpoch}), else the system clock's; a test gives its own clock.
 */
abstract class StampingCommand implements Callable<Integer> {
  final NanoClock clock;

  StampingCommand() {
    this(SourceDateEpoch.fromEnvironment());
  }

  StampingCommand(NanoClock clock) {
    this.clock = clock;
  }
}
