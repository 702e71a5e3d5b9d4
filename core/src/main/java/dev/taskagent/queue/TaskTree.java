package dev.taskagent.queue;

import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A plan laid out in one call of {@link TaskQueue#createTree(TaskTree)}: a parent task, its subtasks, and
 * which subtask waits for which. The subtasks name each other by a key the caller chooses, since none of
 * them has an id yet.
 *
 * <pre>{@code
 * TaskTree plan = TaskTree.builder(queue.newTask("Release 2.0").build())
 *         .child("build", queue.newTask("Build").assignee("builder").build())
 *         .child("test", queue.newTask("Test").assignee("tester").build(), "build")
 *         .child("deploy", queue.newTask("Deploy").assignee("deployer").build(), "test")
 *         .build();
 * TaskTree.Created created = queue.createTree(plan);
 * long deployId = created.child("deploy").id();
 * }</pre>
 *
 * <p>{@link Builder#build()} checks the plan as a whole: every key a subtask waits for is declared, and
 * the keys do not wait for each other in a cycle. Immutable and thread-safe.
 */
public final class TaskTree {
    /** The most subtasks one tree may hold. */
    public static final int MAX_CHILDREN = 100;

    /** The longest key, in characters. */
    public static final int MAX_KEY_LENGTH = 64;

    private final NewTask parent;
    private final List<Child> children;

    private TaskTree(NewTask parent, List<Child> children) {
        this.parent = parent;
        this.children = children;
    }

    /**
     * Starts a tree.
     *
     * @param parent the parent task; its own parent and blockers, if any, are existing tasks' ids
     * @return a builder
     * @throws NullPointerException if {@code parent} is null
     */
    public static Builder builder(NewTask parent) {
        return new Builder(parent);
    }

    /** @return the parent task's spec */
    public NewTask parent() {
        return parent;
    }

    /** @return the subtasks in the order declared */
    public List<Child> children() {
        return children;
    }

    /**
     * Returns the subtasks in an order in which each comes after every subtask it waits for, declared order
     * among those that do not wait for each other.
     *
     * @return the subtasks, blockers first
     */
    public List<Child> creationOrder() {
        List<Child> ordered = new ArrayList<>();
        Set<String> placed = new LinkedHashSet<>();
        while (ordered.size() < children.size()) {
            for (Child child : children) {
                if (!placed.contains(child.key()) && placed.containsAll(child.blockedBy())) {
                    ordered.add(child);
                    placed.add(child.key());
                    break;
                }
            }
        }
        return List.copyOf(ordered);
    }

    @Override
    public String toString() {
        return "TaskTree[parent=" + parent.description() + ", children="
                + children.stream().map(Child::key).toList() + "]";
    }

    /**
     * One subtask of a tree.
     *
     * @param key the caller's name for it, unique in the tree
     * @param spec what to create; its parent is set to the tree's parent, and the subtasks named by {@code
     *     blockedBy} are added to its own blockers
     * @param blockedBy the keys of the subtasks it waits for, in the order given
     */
    public record Child(String key, NewTask spec, List<String> blockedBy) {
        /**
         * Checks the arguments and copies the list.
         *
         * @param key not blank, at most {@value TaskTree#MAX_KEY_LENGTH} characters
         * @param spec not null; without a parent of its own
         * @param blockedBy not null, no key twice, not the subtask's own key
         */
        public Child {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(spec, "spec");
            Objects.requireNonNull(blockedBy, "blockedBy");
            if (key.isBlank()) {
                throw new IllegalArgumentException("a subtask's key must not be blank");
            }
            if (key.length() > MAX_KEY_LENGTH) {
                throw new IllegalArgumentException("key '" + key.substring(0, 20) + "…' is " + key.length()
                        + " characters long; the limit is " + MAX_KEY_LENGTH);
            }
            if (spec.parentId() != 0) {
                throw new IllegalArgumentException("subtask '" + key + "' names parent " + spec.parentId()
                        + "; the tree makes it a subtask of its parent, so leave its parent out");
            }
            blockedBy = List.copyOf(blockedBy);
            Set<String> seen = new LinkedHashSet<>();
            for (String blocker : blockedBy) {
                if (blocker.equals(key)) {
                    throw new IllegalArgumentException("subtask '" + key + "' cannot wait for itself");
                }
                if (!seen.add(blocker)) {
                    throw new IllegalArgumentException("subtask '" + key + "' names '" + blocker + "' twice");
                }
            }
        }
    }

    /**
     * What {@link TaskQueue#createTree(TaskTree)} created.
     *
     * @param parent the new parent task
     * @param children the new subtasks by key, in the order declared
     */
    public record Created(Task parent, Map<String, Task> children) {
        /**
         * Checks the arguments and copies the map, keeping its order.
         *
         * @param parent not null
         * @param children not null
         */
        public Created {
            Objects.requireNonNull(parent, "parent");
            children = Collections.unmodifiableMap(new LinkedHashMap<>(children));
        }

        /**
         * Returns a new subtask by its key.
         *
         * @param key a key of the tree
         * @return the subtask as created
         * @throws IllegalArgumentException if the tree had no such key
         */
        public Task child(String key) {
            Task task = children.get(key);
            if (task == null) {
                throw new IllegalArgumentException(
                        "the tree has no subtask '" + key + "'; its keys are " + String.join(", ", children.keySet()));
            }
            return task;
        }
    }

    /** Builds a {@link TaskTree}; not thread-safe. */
    public static final class Builder {
        private final NewTask parent;
        private final Map<String, Child> children = new LinkedHashMap<>();

        private Builder(NewTask parent) {
            this.parent = Objects.requireNonNull(parent, "parent");
        }

        /**
         * Adds a subtask.
         *
         * @param key the caller's name for it; unique in the tree
         * @param spec what to create, without a parent
         * @param blockedBy the keys of the subtasks it waits for
         * @return this builder
         * @throws IllegalArgumentException if the key is blank, too long or taken, or the subtask waits for
         *     itself or names a key twice
         */
        public Builder child(String key, NewTask spec, String... blockedBy) {
            return child(key, spec, List.of(blockedBy));
        }

        /**
         * Adds a subtask.
         *
         * @param key the caller's name for it; unique in the tree
         * @param spec what to create, without a parent
         * @param blockedBy the keys of the subtasks it waits for
         * @return this builder
         * @throws IllegalArgumentException if the key is blank, too long or taken, or the subtask waits for
         *     itself or names a key twice
         */
        public Builder child(String key, NewTask spec, List<String> blockedBy) {
            Child child = new Child(key, spec, blockedBy);
            if (children.containsKey(key)) {
                throw new IllegalArgumentException("two subtasks have the key '" + key + "'; give each its own key");
            }
            if (children.size() == MAX_CHILDREN) {
                throw new IllegalArgumentException(
                        "a tree holds at most " + MAX_CHILDREN + " subtasks; lay out the rest in another call");
            }
            children.put(key, child);
            return this;
        }

        /**
         * Checks the plan as a whole and builds it.
         *
         * @return the tree
         * @throws IllegalArgumentException if a subtask waits for a key that is not declared, or subtasks
         *     wait for each other in a cycle (the message names it, e.g. {@code a → b → a})
         */
        public TaskTree build() {
            for (Child child : children.values()) {
                for (String blocker : child.blockedBy()) {
                    if (!children.containsKey(blocker)) {
                        throw new IllegalArgumentException("subtask '" + child.key() + "' waits for '" + blocker
                                + "', which is not a key of this tree; its keys are "
                                + String.join(", ", children.keySet()));
                    }
                }
            }
            List<String> cycle = findCycle();
            if (!cycle.isEmpty()) {
                throw new IllegalArgumentException("the subtasks wait for each other in a cycle: "
                        + String.join(" → ", cycle) + " (each waits for the next); remove one of those waits");
            }
            return new TaskTree(parent, List.copyOf(children.values()));
        }

        /** A cycle of keys, each waiting for the next, the first repeated at the end; empty when none. */
        private List<String> findCycle() {
            Map<String, Integer> state = new HashMap<>(); // 1 on the path, 2 done
            for (String start : children.keySet()) {
                List<String> path = new ArrayList<>();
                List<String> cycle = visit(start, state, path);
                if (!cycle.isEmpty()) {
                    return cycle;
                }
            }
            return List.of();
        }

        private List<String> visit(String key, Map<String, Integer> state, List<String> path) {
            Integer seen = state.get(key);
            if (seen != null && seen == 2) {
                return List.of();
            }
            if (seen != null) {
                List<String> cycle = new ArrayList<>(path.subList(path.indexOf(key), path.size()));
                cycle.add(key);
                return cycle;
            }
            state.put(key, 1);
            path.add(key);
            for (String blocker : children.get(key).blockedBy()) {
                List<String> cycle = visit(blocker, state, path);
                if (!cycle.isEmpty()) {
                    return cycle;
                }
            }
            path.remove(path.size() - 1);
            state.put(key, 2);
            return List.of();
        }
    }
}
