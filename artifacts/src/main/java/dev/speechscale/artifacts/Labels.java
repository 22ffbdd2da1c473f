package dev.speechscale.artifacts;

import dev.speechscale.capacity.CapacityException;
import dev.speechscale.capacity.PlanVerdict;
import dev.speechscale.capacity.Verdict;
import java.util.Arrays;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.module.SimpleModule;

/**
 * The closed sets artifacts carry (verdicts, severities, check results), written as the labels
 * schema_version 1 has always used and parsed back from them. Registered here rather than with
 * annotations because {@code capacity} is JDK only.
 */
final class Labels {
  private Labels() {}

  static SimpleModule module() {
    SimpleModule m = new SimpleModule("speechscale-labels");
    add(m, PlanVerdict.class, PlanVerdict::label, PlanVerdict::ofLabel);
    add(m, Verdict.class, Verdict::label, Verdict::ofLabel);
    add(
        m,
        ValidateArtifact.Verdict.class,
        ValidateArtifact.Verdict::label,
        ValidateArtifact.Verdict::ofLabel);
    add(
        m,
        ValidateArtifact.Result.class,
        ValidateArtifact.Result::label,
        ValidateArtifact.Result::ofLabel);
    add(
        m,
        DriftArtifact.Severity.class,
        DriftArtifact.Severity::label,
        DriftArtifact.Severity::ofLabel);
    add(
        m,
        ReplayArtifact.Result.class,
        ReplayArtifact.Result::label,
        ReplayArtifact.Result::ofLabel);
    add(
        m,
        ReplayArtifact.Verdict.class,
        ReplayArtifact.Verdict::label,
        ReplayArtifact.Verdict::ofLabel);
    return m;
  }

  /** The constant whose label is {@code label}; names {@code what} and the labels if none is. */
  static <E extends Enum<E> & Labelled> E ofLabel(Class<E> type, String label, String what) {
    E e = ofLabelOrNull(type, label);
    if (e == null) {
      throw new ArtifactException(notOneOf(type, label, what));
    }
    return e;
  }

  /**
   * The constant whose label is {@code label}, or {@code fallback} for {@code null}; an unknown
   * label is refused naming {@code what}, the labels and the default, then {@code fix}.
   */
  static <E extends Enum<E> & Labelled> E ofLabel(
      Class<E> type, @Nullable String label, E fallback, String what, String fix) {
    if (label == null) {
      return fallback;
    }
    E e = ofLabelOrNull(type, label);
    if (e == null) {
      throw new ArtifactException(
          notOneOf(type, label, what) + " (default " + fallback.label() + ")" + fix);
    }
    return e;
  }

  private static <E extends Enum<E> & Labelled> String notOneOf(
      Class<E> type, String label, String what) {
    return what + " '" + label + "' is not one of " + labels(type);
  }

  /** The constant whose label is {@code label}; {@code null} if none is. */
  static <E extends Enum<E> & Labelled> @Nullable E ofLabelOrNull(Class<E> type, String label) {
    for (E e : type.getEnumConstants()) {
      if (e.label().equals(label)) {
        return e;
      }
    }
    return null;
  }

  /** Every label of {@code type}, comma-separated. */
  static <E extends Enum<E> & Labelled> String labels(Class<E> type) {
    return Arrays.stream(type.getEnumConstants())
        .map(Labelled::label)
        .collect(Collectors.joining(", "));
  }

  private static <T> void add(
      SimpleModule m, Class<T> type, Function<T, String> label, Function<String, T> parse) {
    m.addSerializer(
        type,
        new ValueSerializer<T>() {
          @Override
          public void serialize(T value, JsonGenerator gen, SerializationContext ctxt) {
            gen.writeString(label.apply(value));
          }
        });
    m.addDeserializer(
        type,
        new ValueDeserializer<T>() {
          @Override
          public T deserialize(JsonParser p, DeserializationContext ctxt) {
            try {
              return parse.apply(p.getValueAsString());
            } catch (CapacityException | ArtifactException e) {
              return ctxt.reportInputMismatch(this, "%s", e.getMessage());
            }
          }
        });
  }
}
