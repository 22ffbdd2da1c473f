package dev.speechscale.cli;

import java.util.Locale;
import java.util.Map;
import picocli.CommandLine;

/**
 * A converter for an option that takes one of a closed set of words, case and surrounding blanks
 * ignored. A word outside the set is refused with the option's own sentence ({@link Refused}),
 * which {@link Cli} prints as the usage error instead of picocli's "Invalid value for option".
 *
 * @param <T> what the words stand for
 */
abstract class Choice<T> implements CommandLine.ITypeConverter<T> {
  private final Map<String, T> words;
  private final String refusal;

  /**
   * @param words each word, lower case, and what it stands for
   * @param refusal the usage error for a word outside them; {@code %s} is the word as given
   */
  Choice(Map<String, T> words, String refusal) {
    this.words = Map.copyOf(words);
    this.refusal = refusal;
  }

  @Override
  public T convert(String value) {
    T t = words.get(value.strip().toLowerCase(Locale.ROOT));
    if (t == null) {
      throw new Refused(String.format(Locale.ROOT, refusal, value));
    }
    return t;
  }

  /** A word outside the set: the message is the whole usage error. */
  static final class Refused extends CommandLine.TypeConversionException {
    private static final long serialVersionUID = 1L;

    Refused(String message) {
      super(message);
    }
  }
}
