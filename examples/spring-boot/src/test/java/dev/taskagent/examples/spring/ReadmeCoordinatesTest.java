package dev.taskagent.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/**
 * The starter README's Maven block builds as written: it imports {@code taskagent-bom} at this build's version,
 * every taskagent artifact it adds is one the BOM pins (so none needs a version), and each of them is a
 * dependency of this example application, whose build resolves them together with Spring Boot's BOM.
 */
class ReadmeCoordinatesTest {
    private static final Path README = Path.of("../../spring-boot-starter/README.md");
    private static final String MARKER = "<!-- spring-coordinates";

    @Test
    void theReadmesMavenBlockImportsTheBomAndAddsOnlyWhatItPins() throws Exception {
        Document block = xml("<block>" + readmeXml() + "</block>");
        Document bom = xml(Files.readString(Path.of("../../bom/pom.xml")));
        Document example = xml(Files.readString(Path.of("pom.xml")));
        String version = text(xml(Files.readString(Path.of("../../pom.xml"))).getDocumentElement(), "version");

        List<Element> imports = dependencies(block, "dependencyManagement");
        assertThat(imports).hasSize(1);
        assertThat(text(imports.get(0), "artifactId")).isEqualTo("taskagent-bom");
        assertThat(text(imports.get(0), "version")).isEqualTo(version);
        assertThat(text(imports.get(0), "type")).isEqualTo("pom");
        assertThat(text(imports.get(0), "scope")).isEqualTo("import");

        List<String> pinned = artifactIds(dependencies(bom, "dependencyManagement"));
        List<String> built = artifactIds(dependencies(example, "dependencies"));
        List<Element> added = dependencies(block, "dependencies");
        assertThat(added).isNotEmpty();
        for (Element dependency : added) {
            String artifactId = text(dependency, "artifactId");
            assertThat(text(dependency, "groupId")).as(artifactId).isEqualTo("dev.taskagent");
            assertThat(dependency.getElementsByTagName("version").getLength())
                    .as(artifactId + " takes its version from the BOM")
                    .isZero();
            assertThat(pinned).as("the BOM pins " + artifactId).contains(artifactId);
            assertThat(built)
                    .as("the example application builds with " + artifactId)
                    .contains(artifactId);
        }
        assertThat(artifactIds(added)).contains("taskagent-spring-boot-starter");
    }

    private static String readmeXml() throws IOException {
        String readme = Files.readString(README);
        int marker = readme.indexOf(MARKER);
        assertThat(marker).as("the README marks its Maven block").isNotNegative();
        int start = readme.indexOf("```xml\n", marker) + "```xml\n".length();
        return readme.substring(start, readme.indexOf("```", start));
    }

    /** The dependency elements directly in the first {@code <section>} (or its {@code <dependencies>}). */
    private static List<Element> dependencies(Document document, String section) {
        List<Element> found = new ArrayList<>();
        NodeList sections = document.getElementsByTagName(section);
        Element within = (Element) sections.item(0);
        if (!section.equals("dependencies")) {
            within = (Element) within.getElementsByTagName("dependencies").item(0);
        } else {
            // The project's own dependencies, not the ones of its dependencyManagement.
            for (int i = 0; i < sections.getLength(); i++) {
                Element candidate = (Element) sections.item(i);
                if (!((Element) candidate.getParentNode()).getTagName().equals("dependencyManagement")) {
                    within = candidate;
                    break;
                }
            }
        }
        NodeList children = within.getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            if (children.item(i) instanceof Element element
                    && element.getTagName().equals("dependency")) {
                found.add(element);
            }
        }
        return found;
    }

    private static List<String> artifactIds(List<Element> dependencies) {
        return dependencies.stream()
                .map(dependency -> text(dependency, "artifactId"))
                .toList();
    }

    /** The text of the first child element of this name. */
    private static String text(Element element, String name) {
        NodeList children = element.getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            if (children.item(i) instanceof Element child && child.getTagName().equals(name)) {
                return child.getTextContent().strip();
            }
        }
        return null;
    }

    private static Document xml(String text) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(new InputSource(new StringReader(text)));
    }
}
