package dev.speechscale.chain;

import dev.speechscale.platform.Transport;
import java.time.Duration;
import java.util.List;

/**
 * How {@code validate --live} drives load: a section of {@link ValidateRun.Options} that {@link
 * ValidateLive} reads without reaching back into {@code ValidateRun}.
 *
 * @param transport how each request is sent
 * @param phase how long each load phase runs
 * @param texts the texts requests are drawn from
 */
public record ValidateLoad(Transport transport, Duration phase, List<String> texts) {
  public ValidateLoad {
    texts = List.copyOf(texts);
  }
}
