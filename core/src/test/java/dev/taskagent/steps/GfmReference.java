package dev.taskagent.steps;

import java.util.ArrayList;
import java.util.List;
import org.commonmark.ext.task.list.items.TaskListItemMarker;
import org.commonmark.ext.task.list.items.TaskListItemsExtension;
import org.commonmark.node.BlockQuote;
import org.commonmark.node.LinkReferenceDefinition;
import org.commonmark.node.ListItem;
import org.commonmark.node.Node;
import org.commonmark.node.SourceSpan;
import org.commonmark.parser.IncludeSourceSpans;
import org.commonmark.parser.Parser;

/**
 * The task-list items that commonmark-java, with its GitHub task-list extension, finds in a document: the
 * reference that {@link MarkdownSteps} is compared against.
 */
final class GfmReference {
    private static final Parser PARSER = Parser.builder()
            .extensions(List.of(TaskListItemsExtension.create()))
            .includeSourceSpans(IncludeSourceSpans.BLOCKS)
            // Our parser has no nesting limit; the reference's default (100 open blocks) would differ.
            .maxOpenBlockParsers(Integer.MAX_VALUE)
            .build();

    /**
     * One task-list item as the reference sees it, with the position and text taken from the document
     * the same way {@link Step} reports them, so that the two can be compared field by field.
     *
     * @param line 1-based line of the box
     * @param boxOffset offset of the box's {@code [} in the document
     * @param checked the marker's state
     * @param text the rest of the box's line after the box, stripped
     * @param depth list items around the item
     * @param boxContent the character inside the box
     * @param inBlockQuote true when a block quote contains the item
     * @param belowItsMarker true when the box is not on the line of the item's list marker
     */
    record ReferenceStep(
            int line,
            int boxOffset,
            boolean checked,
            String text,
            int depth,
            char boxContent,
            boolean inBlockQuote,
            boolean belowItsMarker) {

        Observed observed() {
            return new Observed(line, boxOffset, checked, text, depth);
        }
    }

    /** What both parsers report of a step, compared between them. */
    record Observed(int line, int boxOffset, boolean checked, String text, int depth) {
        static Observed of(Step step) {
            return new Observed(step.line(), step.boxOffset(), step.checked(), step.text(), step.depth());
        }

        @Override
        public String toString() {
            return "line " + line + " @" + boxOffset + (checked ? " [x] " : " [ ] ") + "depth " + depth + " '"
                    + Escaping.javaString(text) + "'";
        }
    }

    /**
     * The reference's reading of a document.
     *
     * @param steps its task-list items, in document order
     * @param definitionColons where the colons after the labels of its link reference definitions are
     */
    record Reading(List<ReferenceStep> steps, List<Integer> definitionColons) {}

    private GfmReference() {}

    /**
     * Reads a document.
     *
     * @param document any text
     * @return what the reference finds in it
     */
    static Reading read(String document) {
        return read(document, document);
    }

    /**
     * Reads a document as if its link reference definitions were plain paragraph text, by changing the
     * colon after each label into a semicolon, until none is left (a definition turned into text may let
     * another line start one); lines and offsets stay where they are.
     *
     * @param document any text
     * @param reading the reference's reading of it
     * @return what the reference finds in the changed document, with texts from the original
     */
    static Reading readWithoutLinkReferenceDefinitions(String document, Reading reading) {
        StringBuilder plain = new StringBuilder(document);
        Reading current = reading;
        while (!current.definitionColons().isEmpty()) {
            for (int colon : current.definitionColons()) {
                plain.setCharAt(colon, ';');
            }
            current = read(document, plain.toString());
        }
        return current;
    }

    /**
     * Finds the task-list items of a document.
     *
     * @param document any text
     * @return the items in document order
     */
    static List<ReferenceStep> steps(String document) {
        return read(document).steps();
    }

    private static Reading read(String document, String parsed) {
        // GitHub drops a leading byte order mark before parsing; commonmark-java would read it as text.
        int skipped = parsed.startsWith("\uFEFF") ? 1 : 0;
        Node root = PARSER.parse(parsed.substring(skipped));
        Reading reading = new Reading(new ArrayList<>(), new ArrayList<>());
        collect(root, document, parsed, skipped, reading);
        return reading;
    }

    private static void collect(Node node, String document, String parsed, int skipped, Reading reading) {
        for (Node child = node.getFirstChild(); child != null; child = child.getNext()) {
            if (child instanceof ListItem item && item.getFirstChild() instanceof TaskListItemMarker marker) {
                reading.steps().add(step(item, marker, document, skipped));
            } else if (child instanceof LinkReferenceDefinition definition) {
                int start = skipped + definition.getSourceSpans().get(0).getInputIndex();
                reading.definitionColons().add(parsed.indexOf("]:", start) + 1);
            }
            collect(child, document, parsed, skipped, reading);
        }
    }

    private static ReferenceStep step(ListItem item, TaskListItemMarker marker, String document, int skipped) {
        Node paragraph = marker.getNext();
        SourceSpan firstLine = paragraph.getSourceSpans().get(0);
        int box = skipped + firstLine.getInputIndex();
        while (document.charAt(box) == ' ' || document.charAt(box) == '\t') {
            box++;
        }
        if (document.charAt(box) != '[') {
            throw new IllegalStateException("No box at " + box + " of " + Escaping.javaString(document));
        }
        int lineEnd = box;
        while (lineEnd < document.length() && document.charAt(lineEnd) != '\n' && document.charAt(lineEnd) != '\r') {
            lineEnd++;
        }
        int depth = -1;
        boolean inBlockQuote = false;
        for (Node ancestor = item; ancestor != null; ancestor = ancestor.getParent()) {
            if (ancestor instanceof ListItem) {
                depth++;
            } else if (ancestor instanceof BlockQuote) {
                inBlockQuote = true;
            }
        }
        return new ReferenceStep(
                firstLine.getLineIndex() + 1,
                box,
                marker.isChecked(),
                document.substring(box + 3, lineEnd).strip(),
                depth,
                document.charAt(box + 1),
                inBlockQuote,
                item.getSourceSpans().get(0).getLineIndex() != firstLine.getLineIndex());
    }
}
