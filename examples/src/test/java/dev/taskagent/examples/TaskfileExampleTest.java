package dev.taskagent.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.examples.TaskfileExample.Exchange;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class TaskfileExampleTest {

    @Test
    void findsTheDemoProjectFromTheRepositoryRootAndFromTheExamplesFolder() {
        Path fromHere = TaskfileExample.locateDemoProject(Path.of(""));
        assertThat(fromHere.resolve(".agent/Taskfile.yml")).exists();
        Path repositoryRoot = fromHere.getParent().getParent();
        assertThat(TaskfileExample.locateDemoProject(repositoryRoot)).isEqualTo(fromHere);
        assertThat(TaskfileExample.locateDemoProject(repositoryRoot.resolve("examples")))
                .isEqualTo(fromHere);
    }

    @Test
    void listsAndRunsTheDemoTasksLikeAModelWould() {
        Path demo = TaskfileExample.locateDemoProject(Path.of(""));
        List<Exchange> exchanges = TaskfileExample.run(demo);
        assertThat(exchanges).hasSize(6);
        assertThat(exchanges.get(0).result().text())
                .contains("\"name\":\"disk\"", "\"name\":\"fail\"", "\"name\":\"greet\"", "\"name\":\"ls\"")
                .contains("\"name\":\"test\"")
                .doesNotContain("check-tools");
        Exchange greet = exchanges.get(1);
        assertThat(greet.result().isError()).isFalse();
        assertThat(greet.result().text()).contains("\"stdout\":\"Hello, Ada Lovelace!\\n\"");
        assertThat(exchanges.get(2).result().text()).contains("scripts");
        Exchange test = exchanges.get(3);
        assertThat(test.result().isError()).as(test.result().text()).isFalse();
        assertThat(test.result().text()).contains("ok   the Taskfile exists", "3 checks passed");
        assertThat(exchanges.get(4).result().isError())
                .as(exchanges.get(4).result().text())
                .isFalse();
        Exchange fail = exchanges.get(5);
        assertThat(fail.result().isError()).isTrue();
        assertThat(fail.result().text())
                .contains("\"exit_code\":3", "about to fail", "this line goes to stderr")
                .doesNotContain("never printed");
    }

    @Test
    void theDemoLeavesNoFilesBehind() throws Exception {
        Path demo = TaskfileExample.locateDemoProject(Path.of(""));
        TaskfileExample.run(demo);
        try (var files = Files.list(demo)) {
            assertThat(files.map(path -> path.getFileName().toString())).containsExactlyInAnyOrder(".agent", "scripts");
        }
    }
}
