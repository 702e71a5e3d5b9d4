package dev.taskagent.store.jdbc;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import dev.taskagent.task.Comment;
import dev.taskagent.task.Link;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * The one format of a task's progresses, preferences, comments and links, which the task row holds as the
 * only copy: each kind a JSON array in a column of its own ({@code progresses}, {@code preferences},
 * {@code comments}, {@code links}), so that a person reads them with SQL and an append rewrites one kind
 * only.
 *
 * <pre>
 * progresses, preferences: ["first", "second"]
 * comments: [{"author": "alice", "text": "…", "at": "2026-11-28T18:00:00.123456Z"}]
 * links:    [{"url": "https://…", "description": "…", "author": "alice", "at": "2026-11-28T18:00:00Z"}]
 * </pre>
 *
 * <p>An append adds its entry to the array in the {@code UPDATE} that bumps the task's version ({@link
 * #appendEntry}), so it is one statement and, as the row is locked by it, concurrent appends keep every
 * entry in commit order. A column that holds no valid array (damaged by hand) makes every read of its task
 * fail with a {@link DamagedTaskException} that names the task and the column; nothing repairs it silently.
 *
 * <p>Thread-safe (stateless).
 */
final class TaskDocument {
    /** The children a task has when created. */
    static final String EMPTY = "[]";

    /** The columns, in the order the reader selects them. */
    static final List<String> COLUMNS = List.of("progresses", "preferences", "comments", "links");

    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private TaskDocument() {}

    /**
     * Returns SQL that appends one entry, the statement's next parameter (JSON text from this class), to
     * the array in {@code column}; a NULL column (a row written without the store) counts as empty.
     */
    static String appendEntry(Dialect dialect, String column) {
        String array = "COALESCE(" + column + ", '" + EMPTY + "')";
        return dialect.concat(
                "SUBSTRING(" + array + ", 1, CHAR_LENGTH(" + array + ") - 1)",
                "CASE WHEN CHAR_LENGTH(" + array + ") = 2 THEN '' ELSE ',' END",
                "?",
                "']'");
    }

    // ---- writing

    static String progress(String text) {
        return write(json -> json.writeString(text));
    }

    static String comment(Comment comment) {
        return write(json -> writeComment(json, comment));
    }

    static String link(Link link) {
        return write(json -> writeLink(json, link));
    }

    static String strings(List<String> values) {
        return write(json -> {
            json.writeStartArray();
            for (String value : values) {
                json.writeString(value);
            }
            json.writeEndArray();
        });
    }

    static String comments(List<Comment> comments) {
        return write(json -> {
            json.writeStartArray();
            for (Comment comment : comments) {
                writeComment(json, comment);
            }
            json.writeEndArray();
        });
    }

    static String links(List<Link> links) {
        return write(json -> {
            json.writeStartArray();
            for (Link link : links) {
                writeLink(json, link);
            }
            json.writeEndArray();
        });
    }

    private static void writeComment(JsonGenerator json, Comment comment) throws IOException {
        json.writeStartObject();
        json.writeStringField("author", comment.author());
        json.writeStringField("text", comment.text());
        json.writeStringField("at", comment.createdAt().toString());
        json.writeEndObject();
    }

    private static void writeLink(JsonGenerator json, Link link) throws IOException {
        json.writeStartObject();
        json.writeStringField("url", link.url());
        json.writeStringField("description", link.description());
        json.writeStringField("author", link.author());
        json.writeStringField("at", link.createdAt().toString());
        json.writeEndObject();
    }

    @FunctionalInterface
    private interface Writing {
        void write(JsonGenerator json) throws IOException;
    }

    private static String write(Writing writing) {
        StringWriter text = new StringWriter();
        try (JsonGenerator json = JSON.createGenerator(text)) {
            writing.write(json);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not write JSON to a string", e);
        }
        return text.toString();
    }

    // ---- reading

    /**
     * Reads an array of strings (progresses, preferences).
     *
     * @throws DamagedTaskException if the text is no such array
     */
    static List<String> readStrings(String text, long taskId, String column) {
        if (text == null) {
            return List.of();
        }
        try (JsonParser json = JSON.createParser(text)) {
            expect(json, JsonToken.START_ARRAY, "an array");
            List<String> values = new ArrayList<>();
            while (json.nextToken() != JsonToken.END_ARRAY) {
                values.add(string(json));
            }
            end(json);
            return values;
        } catch (IOException | Malformed e) {
            throw new DamagedTaskException(taskId, column, e.getMessage());
        }
    }

    /**
     * Reads an array of comments.
     *
     * @throws DamagedTaskException if the text is no such array
     */
    static List<Comment> readComments(String text, long taskId) {
        if (text == null) {
            return List.of();
        }
        try (JsonParser json = JSON.createParser(text)) {
            expect(json, JsonToken.START_ARRAY, "an array");
            List<Comment> comments = new ArrayList<>();
            while (json.nextToken() != JsonToken.END_ARRAY) {
                Fields fields = fields(json, "author", "text", "at");
                comments.add(new Comment(fields.get(0), fields.get(1), fields.time(2)));
            }
            end(json);
            return comments;
        } catch (IOException | IllegalArgumentException | Malformed e) {
            throw new DamagedTaskException(taskId, "comments", e.getMessage());
        }
    }

    /**
     * Reads an array of links.
     *
     * @throws DamagedTaskException if the text is no such array
     */
    static List<Link> readLinks(String text, long taskId) {
        if (text == null) {
            return List.of();
        }
        try (JsonParser json = JSON.createParser(text)) {
            expect(json, JsonToken.START_ARRAY, "an array");
            List<Link> links = new ArrayList<>();
            while (json.nextToken() != JsonToken.END_ARRAY) {
                Fields fields = fields(json, "url", "description", "author", "at");
                links.add(new Link(fields.get(0), fields.get(1), fields.get(2), fields.time(3)));
            }
            end(json);
            return links;
        } catch (IOException | IllegalArgumentException | Malformed e) {
            throw new DamagedTaskException(taskId, "links", e.getMessage());
        }
    }

    /** A document that parses as JSON but is not what this class writes. */
    private static final class Malformed extends Exception {
        private static final long serialVersionUID = 1L;

        Malformed(String message) {
            super(message, null, false, false);
        }
    }

    /** The string fields of one object, by their position in the names asked for. */
    private record Fields(String[] values, String[] names) {
        String get(int index) {
            return values[index];
        }

        Instant time(int index) throws Malformed {
            try {
                return Instant.parse(values[index]);
            } catch (DateTimeParseException e) {
                throw new Malformed("\"" + names[index] + "\" is not a time: " + values[index]);
            }
        }
    }

    /** Reads an object (the parser is at its start) whose fields are exactly {@code names}, all strings. */
    private static Fields fields(JsonParser json, String... names) throws IOException, Malformed {
        if (json.currentToken() != JsonToken.START_OBJECT) {
            throw new Malformed("expected an object, found " + found(json));
        }
        String[] values = new String[names.length];
        while (json.nextToken() == JsonToken.FIELD_NAME) {
            String name = json.currentName();
            int index = List.of(names).indexOf(name);
            if (index < 0) {
                throw new Malformed("unexpected field \"" + name + "\"; expected " + String.join(", ", names));
            }
            json.nextToken();
            values[index] = string(json);
        }
        for (int index = 0; index < names.length; index++) {
            if (values[index] == null) {
                throw new Malformed("an entry lacks \"" + names[index] + "\"");
            }
        }
        return new Fields(values, names);
    }

    private static String string(JsonParser json) throws IOException, Malformed {
        if (json.currentToken() != JsonToken.VALUE_STRING) {
            throw new Malformed("expected a string, found " + found(json));
        }
        return json.getText();
    }

    private static void expect(JsonParser json, JsonToken token, String what) throws IOException, Malformed {
        if (json.nextToken() != token) {
            throw new Malformed("expected " + what + ", found " + found(json));
        }
    }

    private static void end(JsonParser json) throws IOException, Malformed {
        if (json.nextToken() != null) {
            throw new Malformed("text after the end of the array: " + found(json));
        }
    }

    private static String found(JsonParser json) {
        JsonToken token = json.currentToken();
        return token == null ? "the end of the text" : token.asString() != null ? token.asString() : token.name();
    }
}
