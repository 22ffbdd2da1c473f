package dev.speechscale.artifacts;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads and writes artifacts: JSON in snake_case, schema-checked on read, written atomically, with
 * derived values recomputed on every read.
 */
public final class ArtifactCodec {
  private static final JsonMapper MAPPER =
      JsonMapper.builder()
          .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .enable(SerializationFeature.INDENT_OUTPUT)
          .addModule(Labels.module())
          .build();

  private static final Map<ArtifactKind, Schema> SCHEMAS = new EnumMap<>(ArtifactKind.class);

  private ArtifactCodec() {}

  /** The mapper every module uses for artifact JSON. */
  public static JsonMapper mapper() {
    return MAPPER;
  }

  /** One-line JSON (no indentation), for JSON-lines logs. */
  public static String toJsonLine(Object value) {
    return MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(value);
  }

  /** Reads a replay artifact. */
  public static ReplayArtifact readReplay(Path file) {
    return read(file, ArtifactKind.REPLAY, ReplayArtifact.class);
  }

  /** Reads a qmax artifact and recomputes its derived values. */
  public static QmaxArtifact readQmax(Path file) {
    return read(file, ArtifactKind.QMAX, QmaxArtifact.class).withDerived();
  }

  /** Reads a ttotal artifact and recomputes its durations and totals. */
  public static TtotalArtifact readTtotal(Path file) {
    return read(file, ArtifactKind.TTOTAL, TtotalArtifact.class).withDerived();
  }

  /** Reads a validate artifact. */
  public static ValidateArtifact readValidate(Path file) {
    return read(file, ArtifactKind.VALIDATE, ValidateArtifact.class);
  }

  /** Reads a drift artifact. */
  public static DriftArtifact readDrift(Path file) {
    return read(file, ArtifactKind.DRIFT, DriftArtifact.class);
  }

  /** Reads a simulate artifact. */
  public static SimulateArtifact readSimulate(Path file) {
    return read(file, ArtifactKind.SIMULATE, SimulateArtifact.class);
  }

  /** Reads a plan artifact. */
  public static PlanArtifact readPlan(Path file) {
    return read(file, ArtifactKind.PLAN, PlanArtifact.class);
  }

  /**
   * Reads {@code file} as {@code kind}: JSON, then {@code schema_version} and {@code kind}, then
   * the kind's schema, then the record.
   */
  static <T> T read(Path file, ArtifactKind kind, Class<T> type) {
    String json;
    try {
      json = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw fail(file, kind, "no such file");
    } catch (IOException e) {
      throw fail(file, kind, "cannot be read (" + e.getMessage() + ")");
    }
    JsonNode tree;
    try {
      tree = MAPPER.readTree(json);
    } catch (JacksonException e) {
      throw fail(file, kind, "is not JSON: " + where(e) + e.getOriginalMessage());
    }
    if (tree == null || !tree.isObject()) {
      throw fail(file, kind, "is not a JSON object");
    }
    JsonNode version = tree.get("schema_version");
    if (version == null || !version.isInt() || version.intValue() != Artifact.SCHEMA_VERSION) {
      throw fail(
          file,
          kind,
          "has schema_version "
              + (version == null ? "(missing)" : version.toString())
              + "; this tool reads schema_version "
              + Artifact.SCHEMA_VERSION);
    }
    JsonNode kindNode = tree.get("kind");
    if (kindNode == null || !kind.label().equals(kindNode.asString(""))) {
      throw fail(
          file,
          kind,
          "is a "
              + (kindNode == null ? "(kind missing)" : kindNode.toString())
              + " artifact, not a \""
              + kind.label()
              + "\" one");
    }
    List<Error> errors = schema(kind).validate(tree);
    if (!errors.isEmpty()) {
      throw fail(
          file,
          kind,
          "does not match the "
              + kind.label()
              + " schema: "
              + errors.stream()
                  .limit(5)
                  .map(e -> e.getInstanceLocation() + " " + e.getMessage())
                  .collect(Collectors.joining("; ")));
    }
    try {
      return MAPPER.treeToValue(tree, type);
    } catch (JacksonException e) {
      throw fail(
          file,
          kind,
          "has a field of the wrong type at "
              + e.getPathReference()
              + ": "
              + e.getOriginalMessage());
    }
  }

  /** Validates an artifact's JSON against its kind's schema; empty when valid. */
  public static List<String> validate(ArtifactKind kind, String json) {
    JsonNode tree = MAPPER.readTree(json);
    return schema(kind).validate(tree).stream()
        .map(e -> e.getInstanceLocation() + " " + e.getMessage())
        .toList();
  }

  /** The artifact as JSON text (a trailing newline included). */
  public static String toJson(Object artifact) {
    return MAPPER.writeValueAsString(artifact) + "\n";
  }

  /**
   * Writes atomically: a temporary file in the same directory, forced to disk, then renamed over
   * {@code file}. A reader sees the old file or the new one, never half of one.
   */
  public static void write(Path file, Object artifact) {
    writeText(file, toJson(artifact));
  }

  /** Atomic write of text, for artifacts and reports alike. */
  public static void writeText(Path file, String text) {
    Path dir = file.toAbsolutePath().getParent();
    try {
      Files.createDirectories(dir);
      Path tmp = Files.createTempFile(dir, "." + file.getFileName(), ".tmp");
      try {
        // artifacts are shared evidence, readable like any file the user writes
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
      } catch (UnsupportedOperationException notPosix) {
        // a non-POSIX file system keeps its own defaults
      }
      try {
        try (FileChannel ch =
            FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
          ch.write(java.nio.ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
          ch.force(true);
        }
        try {
          Files.move(
              tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
      } finally {
        Files.deleteIfExists(tmp);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  private static synchronized Schema schema(ArtifactKind kind) {
    return SCHEMAS.computeIfAbsent(
        kind,
        k -> {
          try (InputStream in = ArtifactCodec.class.getResourceAsStream(k.schemaResource())) {
            if (in == null) {
              throw new ArtifactException("no JSON Schema for " + k.label() + " in the build");
            }
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(in);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }

  /**
   * {@code line 3, column 5: } from a parse error's location, or nothing when Jackson has none.
   * Jackson's own message would say {@code Source: REDACTED (StreamReadFeature.
   * INCLUDE_SOURCE_IN_LOCATION disabled)} instead, so the message is built from its parts.
   */
  private static String where(JacksonException e) {
    TokenStreamLocation at = e.getLocation();
    if (at == null || at.getLineNr() < 1) {
      return "";
    }
    return String.format(Locale.ROOT, "line %d, column %d: ", at.getLineNr(), at.getColumnNr());
  }

  private static ArtifactException fail(Path file, ArtifactKind kind, String problem) {
    return new ArtifactException(
        file
            + " "
            + problem
            + ". A "
            + kind.label()
            + " artifact is written by `"
            + kind.writer()
            + "`.");
  }
}
