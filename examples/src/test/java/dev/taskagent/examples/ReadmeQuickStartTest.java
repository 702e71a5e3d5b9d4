package dev.taskagent.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's quick start is {@link QuickStart} word for word, and it runs offline as written. */
class ReadmeQuickStartTest {
    private static final String MARKER =
            "<!-- quick-start: examples/src/main/java/dev/taskagent/examples/QuickStart.java";

    @Test
    void theReadmeShowsTheQuickStartClassWordForWord() throws IOException {
        String readme = Files.readString(Path.of("../README.md"));
        int marker = readme.indexOf(MARKER);
        assertThat(marker).as("README.md has the marker %s", MARKER).isNotNegative();
        int start = readme.indexOf("```java\n", marker) + "```java\n".length();
        String block = readme.substring(start, readme.indexOf("```\n", start));

        assertThat(block)
                .as("the README's quick start block: copy examples/.../QuickStart.java into it")
                .isEqualTo(Files.readString(Path.of("src/main/java/dev/taskagent/examples/QuickStart.java")));
    }

    @Test
    void theQuickStartRunsOfflineWithAScriptedModelItNames() {
        assumeThat(System.getenv("OPENAI_API_KEY") == null && System.getenv("OPENAI_BASE_URL") == null)
                .as("no OpenAI variable is set, so the quick start takes its scripted model")
                .isTrue();
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream original = System.out;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            QuickStart.main(new String[0]);
        } finally {
            System.setOut(original);
        }

        assertThat(captured.toString(StandardCharsets.UTF_8).lines())
                .containsExactly(
                        "Model: ScriptedChatModel (offline; set OPENAI_API_KEY to use OpenAI)",
                        "1. Add a dark mode toggle [running]",
                        "#2 Review the toggle [success]");
    }
}
