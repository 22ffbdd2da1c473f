package dev.speechscale.platform.local;

import dev.speechscale.artifacts.EndpointConfig;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * How local instances are started, and the fingerprint of what they run: the speech-server build
 * (the bytes of its and its admission gate's classes, the same whether they sit in a jar or a
 * classes directory), the engine and its settings, and the container environment. Rebuilding
 * unchanged code gives the same digest; changing the server or an engine setting gives another, and
 * measurements stop pairing with the deployment.
 *
 * @param classpath the classpath instances run from
 * @param javaBinary the JDK's {@code java} that starts them
 */
record ServerBuild(String classpath, String javaBinary) {
  static final String MAIN_CLASS = "dev.speechscale.server.Main";
  private static final String MAIN_RESOURCE = "dev/speechscale/server/Main.class";

  /** The build this process runs: {@code speechscale.server.classpath}, else its own classpath. */
  static ServerBuild current() {
    String cp =
        System.getProperty("speechscale.server.classpath", System.getProperty("java.class.path"));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return new ServerBuild(cp, java);
  }

  /**
   * The command that starts one instance of {@code config}, before per-instance settings. It names
   * no engine: the engine and its settings reach the instance as its environment ({@link
   * EndpointConfig#engineEnvironment()}), exactly as they reach a container on SageMaker.
   */
  List<String> command(EndpointConfig config) {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                javaBinary,
                "--enable-native-access=ALL-UNNAMED",
                "-XX:+UseSerialGC",
                "-Xss512k",
                "-cp",
                classpath,
                MAIN_CLASS,
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                "0"));
    return cmd;
  }

  /**
   * The command that starts one instance of {@code config}, from the build's AOT cache when one can
   * be had ({@link AotCache}: trained here the first time a build and engine are deployed).
   */
  List<String> cachedCommand(
      EndpointConfig config, Path cacheDirectory, Consumer<String> progress) {
    List<String> plain = command(config);
    return AotCache.ensure(cacheDirectory, javaBinary, classpath, plain, config, progress)
        .map(cache -> AotCache.using(plain, cache))
        .orElse(plain);
  }

  /** {@code sha256:<hex>} over the server's code, its libraries, the engine settings and env. */
  String digest(EndpointConfig config) {
    MessageDigest sha = sha256();
    boolean found = false;
    for (Path p : entries(classpath)) {
      if (Files.isDirectory(p)) {
        found |= hashDirectory(sha, p);
      } else if (Files.isRegularFile(p) && p.toString().endsWith(".jar")) {
        found |= hashJar(sha, p);
      }
    }
    if (!found) {
      throw new IllegalStateException(
          "speech-server's classes ("
              + MAIN_RESOURCE
              + ") are not on the classpath "
              + classpath
              + "; build the project (bin/test or mvn package) first");
    }
    Map<String, String> identity = new TreeMap<>();
    identity.put("engine", config.engine());
    config.engineSettings().forEach((k, v) -> identity.put("setting." + k, v));
    config.containerEnv().forEach((k, v) -> identity.put("env." + k, v));
    sha.update(identity.toString().getBytes(StandardCharsets.UTF_8));
    return "sha256:" + HexFormat.of().formatHex(sha.digest());
  }

  /**
   * The classpath's entries, following a manifest-only jar's {@code Class-Path} (as Surefire and
   * some launchers use) so the server's classes are found wherever they are.
   */
  static List<Path> entries(String classpath) {
    List<Path> out = new ArrayList<>();
    for (String entry : classpath.split(File.pathSeparator)) {
      if (entry.isBlank()) {
        continue;
      }
      Path p = Path.of(entry);
      out.add(p);
      if (Files.isRegularFile(p) && entry.endsWith(".jar")) {
        try (java.util.jar.JarFile jar = new java.util.jar.JarFile(p.toFile())) {
          java.util.jar.Manifest m = jar.getManifest();
          String cp = m == null ? null : m.getMainAttributes().getValue("Class-Path");
          if (cp != null && jar.stream().noneMatch(e -> e.getName().endsWith(".class"))) {
            for (String url : cp.trim().split("\\s+")) {
              java.net.URI uri = p.toUri().resolve(url);
              out.add(Path.of(uri));
            }
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    return out;
  }

  /** The code that makes an instance: speech-server and its admission gate. */
  private static final List<String> PREFIXES =
      List.of("dev/speechscale/server/", "dev/speechscale/admission/");

  private static boolean hashDirectory(MessageDigest sha, Path dir) {
    boolean found = Files.exists(dir.resolve(MAIN_RESOURCE));
    for (String prefix : PREFIXES) {
      Path sub = dir.resolve(prefix);
      if (!Files.isDirectory(sub)) {
        continue;
      }
      try (Stream<Path> files = Files.walk(sub)) {
        for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
          sha.update(
              dir.relativize(f)
                  .toString()
                  .replace(File.separatorChar, '/')
                  .getBytes(StandardCharsets.UTF_8));
          sha.update(Files.readAllBytes(f));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return found;
  }

  private static boolean hashJar(MessageDigest sha, Path jar) {
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      List<? extends ZipEntry> entries =
          zip.stream()
              .filter(e -> !e.isDirectory() && PREFIXES.stream().anyMatch(e.getName()::startsWith))
              .sorted(Comparator.comparing((ZipEntry z) -> z.getName()))
              .toList();
      for (ZipEntry e : entries) {
        sha.update(e.getName().getBytes(StandardCharsets.UTF_8));
        try (InputStream in = zip.getInputStream(e)) {
          sha.update(in.readAllBytes());
        }
      }
      return zip.getEntry(MAIN_RESOURCE) != null;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
