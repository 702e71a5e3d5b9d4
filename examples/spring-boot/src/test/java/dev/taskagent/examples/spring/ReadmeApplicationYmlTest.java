package dev.taskagent.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.queue.TaskQueue;
import dev.taskagent.spring.boot.autoconfigure.LeaseReaperLifecycle;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.jdbc.JdbcTaskStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;

/**
 * The starter README's {@code application.yml} block, as a user copies it, starts the application: only the database
 * URL is pointed at the test's database (PostgreSQL when {@code TASKAGENT_TEST_POSTGRES_URL} is set, else H2).
 */
class ReadmeApplicationYmlTest {
    private static final Path README = Path.of("../../spring-boot-starter/README.md");
    private static final String MARKER = "<!-- spring-application-yml";

    @Test
    void theReadmesApplicationYmlStartsTheApplication() throws IOException {
        List<PropertySource<?>> readme = new YamlPropertySourceLoader()
                .load(
                        "spring-boot-starter/README.md application.yml",
                        new ByteArrayResource(readmeYaml().getBytes(StandardCharsets.UTF_8)));
        assertThat(readme.get(0).getProperty("taskagent.queue.lease-duration")).isEqualTo("5m");

        String postgres = System.getenv("TASKAGENT_TEST_POSTGRES_URL");
        String url = postgres != null && !postgres.isBlank() ? postgres : "jdbc:h2:mem:readme;DB_CLOSE_DELAY=-1";
        SpringApplication application = new SpringApplication(TaskDeskApplication.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.addInitializers(context -> {
            var sources = context.getEnvironment().getPropertySources();
            sources.addFirst(readme.get(0));
            sources.addFirst(new MapPropertySource("test database", Map.of("spring.datasource.url", url)));
        });
        try (ConfigurableApplicationContext context = application.run()) {
            assertThat(context.getBean(TaskStore.class)).isInstanceOf(JdbcTaskStore.class);
            assertThat(context.getBean(TaskQueue.class).leaseDuration()).isEqualTo(Duration.ofMinutes(5));
            assertThat(context.getBean(TaskQueue.class).maxAttempts()).isEqualTo(3);
            assertThat(context.getBean(LeaseReaperLifecycle.class).reclaimInterval())
                    .isEqualTo(Duration.ofSeconds(30));
            assertThat(context.getBean(LeaseReaperLifecycle.class).isRunning()).isTrue();
        }
    }

    private static String readmeYaml() throws IOException {
        String readme = Files.readString(README);
        int marker = readme.indexOf(MARKER);
        assertThat(marker)
                .as("spring-boot-starter/README.md has the marker " + MARKER)
                .isNotNegative();
        int start = readme.indexOf("```yaml\n", marker) + "```yaml\n".length();
        return readme.substring(start, readme.indexOf("```", start));
    }
}
