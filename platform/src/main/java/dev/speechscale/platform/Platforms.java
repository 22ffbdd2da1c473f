package dev.speechscale.platform;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.stream.StreamSupport;

/** Finds the {@link PlatformProvider}s on the classpath. */
public final class Platforms {
  private Platforms() {}

  /** The provider named {@code name}, if one is on the classpath. */
  public static Optional<PlatformProvider> find(String name) {
    return all().stream().filter(p -> p.name().equals(name)).findFirst();
  }

  /** The names of every provider on the classpath, sorted. */
  public static List<String> names() {
    return all().stream().map(PlatformProvider::name).sorted().toList();
  }

  private static List<PlatformProvider> all() {
    return StreamSupport.stream(ServiceLoader.load(PlatformProvider.class).spliterator(), false)
        .sorted(Comparator.comparing(PlatformProvider::name))
        .toList();
  }
}
