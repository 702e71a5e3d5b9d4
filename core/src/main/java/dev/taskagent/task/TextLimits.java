package dev.taskagent.task;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.taskagent.internal.Json;
import dev.taskagent.internal.StorableText;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The limits every text of a task obeys, checked in one place so that every store accepts and refuses
 * the same input: free text (descriptions, progress, preferences, comments, links, steps) is at most
 * {@link Task#MAX_TEXT_LENGTH} characters, names and ids (session ids, agent names, message ids) at most
 * {@link Task#MAX_ID_LENGTH}; no text holds a NUL character (U+0000) or an unpaired UTF-16
 * surrogate, which some databases refuse or silently replace; and agent names hold no control character.
 *
 * <p>Thread-safe (stateless).
 */
public final class TextLimits {
    private TextLimits() {}

    /**
     * Checks a free text: not null, not longer than {@link Task#MAX_TEXT_LENGTH}, and storable.
     *
     * @param text the text; may be blank
     * @param name the field's name, for the message
     * @return the text
     * @throws NullPointerException if {@code text} is null
     * @throws IllegalArgumentException if {@code text} is too long or holds a NUL character or an unpaired
     *     surrogate; the message names the field
     */
    public static String check(String text, String name) {
        Objects.requireNonNull(text, name);
        if (text.length() > Task.MAX_TEXT_LENGTH) {
            throw new IllegalArgumentException(
                    name + " is " + text.length() + " characters long; the limit is " + Task.MAX_TEXT_LENGTH);
        }
        return checkStorable(text, name);
    }

    /**
     * Checks a name or id (session id, agent name, message id): not null, not blank, not longer than
     * {@link Task#MAX_ID_LENGTH}, and storable.
     *
     * @param value the name
     * @param name the field's name, for the message
     * @return the name
     * @throws NullPointerException if {@code value} is null
     * @throws IllegalArgumentException if {@code value} is blank, too long, or holds a NUL character or an
     *     unpaired surrogate; the message names the field
     */
    public static String checkName(String value, String name) {
        Objects.requireNonNull(value, name);
        if (value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank");
        }
        if (value.length() > Task.MAX_ID_LENGTH) {
            throw new IllegalArgumentException(
                    name + " is " + value.length() + " characters long; the limit is " + Task.MAX_ID_LENGTH);
        }
        return checkStorable(value, name);
    }

    /**
     * Checks an agent name (assignee, author, creator, claimer): a {@linkplain #checkName(String, String)
     * name} that is also one line of printable text, without control characters (C0, DEL, C1; newlines
     * and tabs included), since agent names are shown in tool results and logs.
     *
     * @param value the agent name
     * @param name the field's name, for the message
     * @return the agent name
     * @throws NullPointerException if {@code value} is null
     * @throws IllegalArgumentException if {@code value} is blank, too long, holds a NUL character or an
     *     unpaired surrogate, or a control character; the message names the field
     */
    public static String checkAgentName(String value, String name) {
        return checkOneLine(value, name, "an agent name");
    }

    /**
     * Checks a {@linkplain #checkName(String, String) name} that must be one line of printable text, as {@link
     * #checkAgentName} does, with the message saying what it is.
     *
     * @param value the value
     * @param name the field's name, for the message
     * @param what what the value is, for the message ("a request id")
     * @return the value
     * @throws NullPointerException if {@code value} is null
     * @throws IllegalArgumentException if {@code value} is blank, too long, holds a NUL character or an
     *     unpaired surrogate, or a control character; the message names the field
     */
    public static String checkOneLine(String value, String name, String what) {
        checkName(value, name);
        StorableText.controlCharacter(value).ifPresent(problem -> {
            throw new IllegalArgumentException(
                    name + " contains " + problem + "; " + what + " is one line of printable text, remove it");
        });
        return value;
    }

    /**
     * Checks a task id: the ids a store assigns are positive.
     *
     * @param taskId the id
     * @return the id
     * @throws IllegalArgumentException if not positive
     */
    public static long checkTaskId(long taskId) {
        if (taskId <= 0) {
            throw new IllegalArgumentException("taskId must be positive, was " + taskId);
        }
        return taskId;
    }

    /**
     * Checks a task's tags and puts them in their stored form: each one line of printable text, not blank,
     * at most {@link Task#MAX_TAG_LENGTH} characters, without leading or trailing spaces; duplicates are
     * dropped; at most {@link Task#MAX_TAGS} remain. Sorted.
     *
     * @param tags the tags
     * @return the distinct tags, sorted
     * @throws NullPointerException if the list or a tag is null
     * @throws IllegalArgumentException if a tag is blank, too long, padded or holds a control character, or
     *     there are too many; the message names the tag
     */
    public static List<String> checkTags(List<String> tags) {
        Objects.requireNonNull(tags, "tags");
        TreeSet<String> distinct = new TreeSet<>();
        for (String tag : tags) {
            Objects.requireNonNull(tag, "tag");
            if (tag.isBlank()) {
                throw new IllegalArgumentException("a tag must not be blank");
            }
            if (tag.length() > Task.MAX_TAG_LENGTH) {
                throw new IllegalArgumentException("tag \"" + tag.substring(0, 20) + "…\" is " + tag.length()
                        + " characters long; the limit is " + Task.MAX_TAG_LENGTH);
            }
            if (!tag.strip().equals(tag)) {
                throw new IllegalArgumentException("tag \"" + tag + "\" starts or ends with a space; remove it");
            }
            checkStorable(tag, "tag");
            StorableText.controlCharacter(tag).ifPresent(problem -> {
                throw new IllegalArgumentException("tag contains " + problem + "; a tag is printable text on one line");
            });
            distinct.add(tag);
        }
        if (distinct.size() > Task.MAX_TAGS) {
            throw new IllegalArgumentException(
                    "a task takes at most " + Task.MAX_TAGS + " tags; " + distinct.size() + " were given");
        }
        return List.copyOf(distinct);
    }

    /**
     * Checks a metadata document: a JSON object of at most {@link Task#MAX_METADATA_LENGTH} characters. The
     * text is kept as given.
     *
     * @param metadata the JSON text, or null for none
     * @return the text, unchanged
     * @throws IllegalArgumentException if the text is too long, is not valid JSON, or is JSON but not an object
     */
    public static String checkMetadata(String metadata) {
        if (metadata == null) {
            return null;
        }
        if (metadata.length() > Task.MAX_METADATA_LENGTH) {
            throw new IllegalArgumentException(
                    "metadata is " + metadata.length() + " characters long; the limit is " + Task.MAX_METADATA_LENGTH);
        }
        checkStorable(metadata, "metadata");
        JsonNode node;
        try {
            node = Json.mapper().readTree(metadata);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("metadata is not valid JSON (" + e.getOriginalMessage()
                    + "); give a JSON object such as" + " {\"issue\": \"PROJ-12\"}");
        }
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("metadata must be a JSON object such as {\"issue\": \"PROJ-12\"}, was "
                    + (node == null
                            ? "empty"
                            : "a JSON " + node.getNodeType().name().toLowerCase(java.util.Locale.ROOT)));
        }
        return metadata;
    }

    /**
     * Checks the ids of a task's blockers: each positive, none twice.
     *
     * @param blockedBy the ids
     * @return the ids, sorted
     * @throws NullPointerException if the list or an element is null
     * @throws IllegalArgumentException if an id is not positive or given twice
     */
    public static List<Long> checkBlockers(List<Long> blockedBy) {
        Objects.requireNonNull(blockedBy, "blockedBy");
        TreeSet<Long> distinct = new TreeSet<>();
        for (Long id : blockedBy) {
            Objects.requireNonNull(id, "blockedBy element");
            if (id <= 0) {
                throw new IllegalArgumentException("blockedBy holds " + id + "; task ids are positive");
            }
            if (!distinct.add(id)) {
                throw new IllegalArgumentException("blockedBy names task " + id + " twice");
            }
        }
        return List.copyOf(distinct);
    }

    private static String checkStorable(String text, String name) {
        StorableText.problem(text).ifPresent(problem -> {
            throw new IllegalArgumentException(name + " contains " + problem + ", which no store can keep; remove it");
        });
        return text;
    }
}
