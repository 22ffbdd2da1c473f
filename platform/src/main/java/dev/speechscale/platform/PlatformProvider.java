package dev.speechscale.platform;

import java.io.PrintStream;
import java.time.Duration;

/**
 * One platform, plugged in: its measurement SPI ({@link #open}) and its deployment side ({@link
 * #infra}). Implementations are found with {@link java.util.ServiceLoader} ({@code
 * META-INF/services/dev.speechscale.platform.PlatformProvider}), as invoker transports are, so
 * adding a platform touches its own module and nothing that chooses between platforms. Find one
 * with {@link Platforms#find}.
 */
public interface PlatformProvider {

  /** The name {@code --platform} selects, e.g. {@code local} or {@code aws}. */
  String name();

  /** Opens the measurement SPI; the caller closes it. */
  Platform open(PlatformSettings settings);

  /** The transport a chain step uses when none is given. */
  Transport naturalTransport();

  /**
   * The qmax ladder this platform walks when the user names no rungs, hold, window or settle: the
   * local machine's by default; a platform whose physics differs says so here.
   */
  default LadderDefaults ladderDefaults() {
    return LadderDefaults.localMachine();
  }

  /**
   * The metric publication delay a replay's simulation assumes when the user names none: how late
   * this platform's scaling metric typically reaches its alarms (CloudWatch's minute on AWS). Not
   * {@link Physics#metricPublicationDelay()}, which is an upper bound the chain waits for; none by
   * default.
   */
  default Duration typicalMetricPublicationDelay() {
    return Duration.ZERO;
  }

  /**
   * The deployment side for one model.
   *
   * @param settings where and as whom
   * @param model the model; the endpoint is {@code speech-<model>}
   * @param out the command's standard output (results)
   * @param err the command's standard error (progress)
   */
  Infra infra(PlatformSettings settings, String model, PrintStream out, PrintStream err);
}
