package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The per-dialect schema folders stay in step: every dialect has a folder, and every folder holds the same
 * file names, so a migration added for one database cannot be forgotten for another.
 */
class SchemaResourcesTest {

    private static Path root() throws URISyntaxException {
        return Path.of(SchemaResourcesTest.class
                .getResource(SchemaMigrator.RESOURCE_ROOT)
                .toURI());
    }

    private static List<String> fileNames(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(file -> file.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void everyDialectHasAFolderAndAllFoldersHoldTheSameFileNames() throws Exception {
        List<String> expected = new ArrayList<>(SchemaMigrator.MIGRATIONS);
        expected.add(SchemaMigrator.VERSION_TABLE_SCRIPT);
        expected.add(SchemaMigrator.DOCUMENTS_FINISH);
        expected.add(SchemaMigrator.SEARCH_SIDE_FINISH);
        expected.sort(null);
        List<String> folders;
        try (Stream<Path> entries = Files.list(root())) {
            folders = entries.map(entry -> entry.getFileName().toString())
                    .sorted()
                    .toList();
        }

        assertThat(folders)
                .containsExactlyInAnyOrder(Stream.of(JdbcDialect.values())
                        .map(dialect -> dialect.implementation().folder())
                        .toArray(String[]::new));
        for (String folder : folders) {
            assertThat(fileNames(root().resolve(folder))).as(folder).containsExactlyElementsOf(expected);
        }
    }

    /**
     * Objects only PostgreSQL's script of a migration creates: the search's GIN index, where the other databases
     * match the search text with a regular expression and have no index over it; the partial index of tasks that
     * wait for a time and the partial index of failed tasks (the dead letters' page), which InnoDB and H2 could
     * only have as indexes of every row that every claim writes.
     */
    private static final Map<String, List<String>> POSTGRES_ONLY = Map.of(
            SchemaMigrator.SEARCH_SIDE,
            List.of("taskagent_task_search_words"),
            "V10__queue_semantics.sql",
            List.of("taskagent_tasks_scheduled"),
            "V12__dead_letters.sql",
            List.of("taskagent_tasks_dead_letters"));

    @Test
    void everyScriptCreatesTheSameTablesAndIndexesInEveryDialect() {
        for (String script : Stream.of(
                        SchemaMigrator.MIGRATIONS.stream(),
                        Stream.of(
                                "schema_version.sql",
                                SchemaMigrator.DOCUMENTS_FINISH,
                                SchemaMigrator.SEARCH_SIDE_FINISH))
                .flatMap(scripts -> scripts)
                .toList()) {
            List<String> reference = new ArrayList<>(objects(JdbcDialect.POSTGRESQL, script));
            assertThat(reference).isNotEmpty();
            assertThat(reference).containsAll(POSTGRES_ONLY.getOrDefault(script, List.of()));
            reference.removeAll(POSTGRES_ONLY.getOrDefault(script, List.of()));
            for (JdbcDialect dialect : JdbcDialect.values()) {
                if (dialect == JdbcDialect.POSTGRESQL) {
                    continue;
                }
                assertThat(objects(dialect, script))
                        .as(dialect + " " + script)
                        .containsExactlyInAnyOrderElementsOf(reference);
            }
        }
    }

    /** The names of the tables and indexes a script creates, alters or drops. */
    private static List<String> objects(JdbcDialect dialect, String script) {
        List<String> names = new ArrayList<>();
        for (String statement : SchemaMigrator.statements(SchemaMigrator.script(dialect.implementation(), script))) {
            for (String line : statement.split("\n")) {
                String[] words = line.strip().split("[\\s(]+");
                for (int index = 0; index + 1 < words.length; index++) {
                    if (words[index].equals("TABLE") || words[index].equals("INDEX")) {
                        // IF NOT EXISTS before a created object's name, IF EXISTS before a dropped one's.
                        String name = !words[index + 1].equals("IF")
                                ? words[index + 1]
                                : words[index + 2].equals("NOT") ? words[index + 4] : words[index + 3];
                        names.add(name);
                    }
                }
            }
        }
        return names;
    }

    @Test
    void migrationsAreNumberedFromOneWithoutGaps() {
        for (int index = 0; index < SchemaMigrator.MIGRATIONS.size(); index++) {
            assertThat(SchemaMigrator.version(SchemaMigrator.MIGRATIONS.get(index)))
                    .isEqualTo(index + 1);
        }
    }
}
