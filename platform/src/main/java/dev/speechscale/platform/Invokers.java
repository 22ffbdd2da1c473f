package dev.speechscale.platform;

import java.util.ServiceLoader;

/** Finds the {@link InvokerProvider} for a transport. */
public final class Invokers {
  private Invokers() {}

  /**
   * An invoker for the target's transport.
   *
   * @throws PlatformException when no module on the classpath provides that transport
   */
  public static Invoker create(InvokerTarget target) {
    for (InvokerProvider p : ServiceLoader.load(InvokerProvider.class)) {
      if (p.transport() == target.transport()) {
        return p.create(target);
      }
    }
    throw new PlatformException(
        new PlatformException.Reason.InvalidRequest(
            "no invoker for transport "
                + target.transport().label()
                + " on the classpath; run through bin/tts-bench, which includes every transport"));
  }
}
