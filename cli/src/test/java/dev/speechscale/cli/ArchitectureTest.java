package dev.speechscale.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The module arrows of HOUSE-STYLE, enforced: a pure core (capacity, scaling: JDK only), artifacts
 * over it, adapters outside. The CLI sees every module, so the rules run here.
 */
class ArchitectureTest {
  private static final JavaClasses CLASSES =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.speechscale");

  @Test
  void capacity_usesTheJdkOnly() {
    classes()
        .that()
        .resideInAPackage("dev.speechscale.capacity..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage("java..", "dev.speechscale.capacity..")
        .check(CLASSES);
  }

  @Test
  void scaling_usesTheJdkOnly() {
    classes()
        .that()
        .resideInAPackage("dev.speechscale.scaling..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage("java..", "dev.speechscale.scaling..")
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
            "dev.speechscale.scaling..")
        .check(CLASSES);
  }

  @Test
  void report_usesTheJdkAndArtifactsOnly() {
    classes()
        .that()
        .resideInAPackage("dev.speechscale.report..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage("java..", "dev.speechscale.report..", "dev.speechscale.artifacts..")
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
