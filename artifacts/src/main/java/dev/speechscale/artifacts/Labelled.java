package dev.speechscale.artifacts;

import java.util.Locale;

/**
 * A closed set whose artifact label is its constant's name in lower case ({@code WARN} is written
 * {@code warn}); implemented by enums.
 */
public interface Labelled {

  /** The constant's name, as {@link Enum#name()} gives it. */
  String name();

  /** The label in artifacts and output. */
  default String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
