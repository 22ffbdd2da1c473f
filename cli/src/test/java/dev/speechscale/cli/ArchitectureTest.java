package dev.speechscale.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The module arrows of HOUSE-STYLE, enforced: a pure core (capacity, scaling: JDK only), artifacts
 * over it, adapters outside. The CLI sees every module, so the rules run here.
 */
class ArchitectureTest {
  private static final JavaClasses CLASSES =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.speechscale");

  /**
   * Every arrow of README's module table: the modules each module may use, and no others. A module
   * is a package ({@code platform} is the top package only; its adapters are {@code platform.local}
   * and {@code platform.aws}). Adding an arrow means changing this map, the module's pom and the
   * README table together.
   */
  static final Map<String, List<String>> ARROWS =
      Map.ofEntries(
          Map.entry("capacity", List.of()),
          Map.entry("scaling", List.of("platform")),
          Map.entry("admission", List.of("platform")),
          Map.entry("platform", List.of()),
          Map.entry("simulator", List.of("capacity", "scaling", "platform")),
          Map.entry("artifacts", List.of("capacity", "platform", "simulator")),
          Map.entry("report", List.of("artifacts", "capacity")),
          Map.entry("server", List.of("admission", "platform")),
          Map.entry("loadgen", List.of("platform", "capacity", "artifacts")),
          Map.entry(
              "platform.local",
              List.of("platform", "capacity", "scaling", "artifacts", "server", "loadgen")),
          Map.entry("platform.aws", List.of("platform", "artifacts")),
          Map.entry(
              "chain",
              List.of(
                  "platform",
                  "loadgen",
                  "artifacts",
                  "capacity",
                  "scaling",
                  "simulator",
                  "report")),
          Map.entry(
              "cli",
              List.of(
                  "capacity",
                  "artifacts",
                  "simulator",
                  "report",
                  "platform",
                  "platform.local",
                  "platform.aws",
                  "chain",
                  "loadgen")));

  @TestFactory
  Stream<DynamicTest> everyModule_usesOnlyTheModulesItsArrowsName() {
    return ARROWS.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .map(arrow ->
            DynamicTest.dynamicTest(
                arrow.getKey() + " -> " + arrow.getValue(),
                () -> {
                  Set<String> forbidden = new TreeSet<>(ARROWS.keySet());
                  forbidden.remove(arrow.getKey());
                  arrow.getValue().forEach(forbidden::remove);
                  if (forbidden.isEmpty()) {
                    return;
                  }
                  noClasses()
                      .that()
                      .resideInAPackage(packageOf(arrow.getKey()))
                      .should()
                      .dependOnClassesThat()
                      .resideInAnyPackage(
                          forbidden.stream()
                              .map(ArchitectureTest::packageOf)
                              .toArray(String[]::new))
                      .because("README's module table has no arrow from " + arrow.getKey())
                      .check(CLASSES);
                }));
  }

  @Test
  void everyProductionPackage_isAModuleOfTheTable() {
    Set<String> unknown = new TreeSet<>();
    CLASSES.forEach(c -> {
      String pkg = c.getPackageName().substring("dev.speechscale.".length());
      String module = pkg.startsWith("loadgen") ? "loadgen" : pkg;
      if (!ARROWS.containsKey(module)) {
        unknown.add(c.getPackageName());
      }
    });
    assertThat(unknown)
        .as("packages with no row in ARROWS (add the module's arrows here and in README)")
        .isEmpty();
  }

  private static String packageOf(String module) {
    return switch (module) {
      case "platform" -> "dev.speechscale.platform";
      case "loadgen" -> "dev.speechscale.loadgen..";
      default -> "dev.speechscale." + module + "..";
    };
  }

  @Test
  void capacity_usesTheJdkOnly() {
    classes()
        .that()
        .resideInAPackage("dev.speechscale.capacity..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage("java..", "org.jspecify.annotations..", "dev.speechscale.capacity..")
        .check(CLASSES);
  }

  @Test
  void scaling_usesTheJdkOnly() {
    classes()
        .that()
        .resideInAPackage("dev.speechscale.scaling..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage("java..", "dev.speechscale.scaling..", "dev.speechscale.platform")
        .check(CLASSES);
  }

  @Test
  void platform_usesTheJdkOnly() {
    classes()
        .that()
        .resideInAPackage("dev.speechscale.platform")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage("java..", "dev.speechscale.platform")
        .check(CLASSES);
  }

  @Test
  void simulator_usesTheJdkCapacityAndScalingOnly() {
    classes()
        .that()
        .resideInAPackage("dev.speechscale.simulator..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(
            "java..",
            "dev.speechscale.simulator..",
            "dev.speechscale.capacity..",
            "dev.speechscale.scaling..",
            "dev.speechscale.platform")
        .check(CLASSES);
  }

  @Test
  void report_usesTheJdkArtifactsAndCapacityOnly() {
    classes()
        .that()
        .resideInAPackage("dev.speechscale.report..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(
            "java..",
            "dev.speechscale.report..",
            "dev.speechscale.artifacts..",
            "dev.speechscale.capacity..")
        .check(CLASSES);
  }

  @Test
  void artifacts_dependOnCapacityAndLibrariesOnly() {
    noClasses()
        .that()
        .resideInAPackage("dev.speechscale.artifacts..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.speechscale.cli..", "picocli..")
        .check(CLASSES);
  }

  @Test
  void qmaxStep_isBuiltFromItsSectionsOutsideArtifacts_neverByItsPositionalConstructor() {
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.speechscale.artifacts..")
        .should()
        .callConstructorWhere(
            com.tngtech.archunit.base.DescribedPredicate.describe(
                "a constructor of QmaxStep (24 positional fields: use QmaxStep.of and its sections)",
                call ->
                    call.getTargetOwner().isEquivalentTo(dev.speechscale.artifacts.QmaxStep.class)))
        .check(CLASSES);
  }

  @Test
  void nothingOutsideTheAwsModule_importsTheAwsSdk() {
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.speechscale.platform.aws..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("software.amazon..")
        .check(CLASSES);
  }
}
