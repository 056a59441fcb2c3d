/* BAO BEI conformance report: client-side filtering, no dependencies.
 *
 * Rows to filter carry data-filter-row and:
 *   data-part="3", data-statuses="<engine>:<status> ...", data-flags="uncovered ...", data-text="lowercase words".
 * Cells and panels for one engine carry data-engine="<engine>".
 * The filter is read from the form (.filterbar) and from the address: #status=fail,error&part=3&engine=x&flag=
 * uncovered&text=pelican&sort=failures. Filtered-out rows get the `hidden` attribute. Rows with data-order are
 * put back in that order, or by data-severity first (sort=failures). The filter bar's height is kept in the
 * CSS variable --sticky, so anchors scroll clear of it.
 */
(function () {
  "use strict";
  var FILTERS = ["status", "part", "engine", "flag", "text"];
  var KEYS = FILTERS.concat(["sort"]);  // sort=failures: the scenario list with its worst outcomes first

  function parseHash() {
    var hash = window.location.hash.replace(/^#/, "");
    if (hash.indexOf("=") < 0) { return null; }  // a plain anchor such as #clause-3.5.1
    var out = {};
    hash.split("&").forEach(function (pair) {
      var i = pair.indexOf("=");
      if (i < 0) { return; }
      try {
        out[decodeURIComponent(pair.slice(0, i))] = decodeURIComponent(pair.slice(i + 1).replace(/\+/g, " "));
      } catch (e) { /* a malformed escape: ignore the pair */ }
    });
    return out;
  }

  function list(value) {
    return (value || "").split(",").map(function (x) { return x.trim(); }).filter(Boolean);
  }

  function readForm(form) {
    var f = {};
    f.status = Array.prototype.filter.call(form.querySelectorAll("input[name=status]"), function (box) {
      return box.checked;
    }).map(function (box) { return box.value; }).join(",");
    ["part", "engine", "flag", "text", "sort"].forEach(function (name) {
      var el = form.elements[name];
      f[name] = el ? el.value.trim() : "";
    });
    return f;
  }

  function ensureOption(select, value) {
    if (!value) { return; }
    for (var i = 0; i < select.options.length; i++) {
      if (select.options[i].value === value) { return; }
    }
    var opt = document.createElement("option");
    opt.value = value;
    opt.textContent = value;
    select.appendChild(opt);
  }

  function writeForm(form, f) {
    var statuses = list(f.status);
    Array.prototype.forEach.call(form.querySelectorAll("input[name=status]"), function (box) {
      box.checked = statuses.indexOf(box.value) >= 0;
    });
    ["part", "engine", "flag", "text", "sort"].forEach(function (name) {
      var el = form.elements[name];
      if (!el) { return; }
      if (el.tagName === "SELECT") { ensureOption(el, f[name] || ""); }
      el.value = f[name] || "";
    });
  }

  function rowMatches(row, f) {
    var parts = list(f.part), statuses = list(f.status), flags = list(f.flag), engine = f.engine || "";
    if (parts.length && parts.indexOf(row.getAttribute("data-part") || "") < 0) { return false; }
    if (statuses.length) {
      var tokens = (row.getAttribute("data-statuses") || "").split(" ").filter(Boolean);
      var hit = tokens.some(function (token) {
        var i = token.lastIndexOf(":");
        var eng = token.slice(0, i), st = token.slice(i + 1);
        return (!engine || eng === engine) && statuses.indexOf(st) >= 0;
      });
      if (!hit) { return false; }
    }
    if (flags.length) {
      var have = (row.getAttribute("data-flags") || "").split(" ");
      if (!flags.some(function (x) { return have.indexOf(x) >= 0; })) { return false; }
    }
    var terms = (f.text || "").toLowerCase().split(/\s+/).filter(Boolean);
    if (terms.length) {
      var text = row.getAttribute("data-text") || row.textContent.toLowerCase();
      if (!terms.every(function (t) { return text.indexOf(t) >= 0; })) { return false; }
    }
    return true;
  }

  function order(f) {
    Array.prototype.forEach.call(document.querySelectorAll("[data-filter-table] tbody"), function (body) {
      var rows = Array.prototype.slice.call(body.querySelectorAll("tr[data-order]"));
      var key = function (row) {
        var rank = f.sort === "failures" ? Number(row.getAttribute("data-severity")) : 0;
        return rank * 1e6 + Number(row.getAttribute("data-order"));
      };
      rows.sort(function (a, b) { return key(a) - key(b); });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  }

  function measureSticky() {
    var bar = document.querySelector(".filterbar");
    document.documentElement.style.setProperty("--sticky", bar ? bar.offsetHeight + "px" : "0px");
  }

  function apply(f) {
    var shown = 0, total = 0;
    order(f);
    Array.prototype.forEach.call(document.querySelectorAll("[data-filter-row]"), function (row) {
      var ok = rowMatches(row, f);
      row.hidden = !ok;
      row.classList.toggle("filtered-out", !ok);
      total += 1;
      shown += ok ? 1 : 0;
    });
    Array.prototype.forEach.call(document.querySelectorAll("[data-engine]"), function (el) {
      el.hidden = Boolean(f.engine) && el.getAttribute("data-engine") !== f.engine;
    });
    // Sections whose rows are all filtered out disappear too (innermost first).
    var groups = Array.prototype.slice.call(document.querySelectorAll("[data-filter-group]")).reverse();
    groups.forEach(function (group) {
      var rows = group.querySelectorAll("[data-filter-row]");
      var visible = group.querySelectorAll("[data-filter-row]:not([hidden])");
      group.hidden = rows.length > 0 && visible.length === 0;
    });
    Array.prototype.forEach.call(document.querySelectorAll("[data-filter-table]"), function (table) {
      var rows = table.querySelectorAll("[data-filter-row]");
      var visible = table.querySelectorAll("[data-filter-row]:not([hidden])").length;
      var name = table.getAttribute("data-filter-table");
      Array.prototype.forEach.call(document.querySelectorAll("[data-filter-count=\"" + name + "\"]"), function (out) {
        out.textContent = visible + " of " + rows.length + " shown";
      });
    });
    var active = FILTERS.filter(function (k) { return f[k]; });
    Array.prototype.forEach.call(document.querySelectorAll("[data-filter-summary]"), function (out) {
      out.textContent = active.length ? shown + " of " + total + " rows match" : "";
    });
    document.body.setAttribute("data-filter-active", active.length ? "1" : "0");
  }

  function toHash(f) {
    return KEYS.filter(function (k) { return f[k]; }).map(function (k) {
      return k + "=" + encodeURIComponent(f[k]).replace(/%2C/g, ",");
    }).join("&");
  }

  function init() {
    measureSticky();
    window.addEventListener("resize", measureSticky);
    var form = document.querySelector("[data-filterbar]");
    var fromHash = parseHash();
    if (form) {
      if (fromHash) { writeForm(form, fromHash); }
      var update = function () {
        var f = readForm(form);
        apply(f);
        var hash = toHash(f);
        if (window.history && window.history.replaceState) {
          window.history.replaceState(null, "", hash ? "#" + hash : window.location.pathname + window.location.search);
        }
      };
      form.addEventListener("input", update);
      form.addEventListener("change", update);
      form.addEventListener("submit", function (ev) { ev.preventDefault(); });
      var reset = form.querySelector("[data-filter-reset]");
      if (reset) {
        reset.addEventListener("click", function () { writeForm(form, {}); update(); });
      }
      apply(readForm(form));  // no scrolling here: headless screenshots of a scrolled page come out blank
    } else if (fromHash) {
      apply(fromHash);
    }
    window.addEventListener("hashchange", function () {
      var f = parseHash();
      if (!f) { return; }
      if (form) { writeForm(form, f); }
      apply(form ? readForm(form) : f);
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
}());
