package dev.speechscale.platform.local;

import dev.speechscale.platform.Infra;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.PlatformProvider;
import dev.speechscale.platform.PlatformSettings;
import dev.speechscale.platform.Transport;
import java.io.PrintStream;

/** {@code --platform local}: endpoints as real processes on this machine. */
public final class LocalPlatformProvider implements PlatformProvider {

  @Override
  public String name() {
    return "local";
  }

  @Override
  public Platform open(PlatformSettings settings) {
    return new LocalPlatform(
        settings.stateDir() != null ? settings.stateDir() : LocalPlatform.defaultRoot());
  }

  @Override
  public Transport naturalTransport() {
    return Transport.HTTP_STREAM;
  }

  @Override
  public Infra infra(PlatformSettings settings, String model, PrintStream out, PrintStream err) {
    return new LocalInfra(settings, model, out, err);
  }
}
