/**
 * Self-contained HTML reports rendered from artifacts alone: one file with inline SVG charts and
 * tables, no script and no external resource, so it opens anywhere and can be attached to a ticket.
 * A report shows file names and slugs, never a machine's paths or host name.
 */
package dev.speechscale.report;
