/**
 * Inline script of report.html: filters the rule table by verdict, area,
 * level and text. Plain DOM, no library; without script every row shows
 * and the count tiles still link to their sections.
 */
export const SCRIPT = `
(function () {
  var verdict = document.getElementById('filter-verdict');
  var area = document.getElementById('filter-area');
  var level = document.getElementById('filter-level');
  var text = document.getElementById('filter-text');
  var shown = document.getElementById('shown');
  var rows = Array.prototype.slice.call(document.querySelectorAll('tr.rule'));
  var cards = Array.prototype.slice.call(document.querySelectorAll('a.card'));
  function apply() {
    var q = text.value.trim().toLowerCase();
    var n = 0;
    rows.forEach(function (row) {
      var show = (!verdict.value || row.getAttribute('data-verdict') === verdict.value) &&
        (!area.value || row.getAttribute('data-area') === area.value) &&
        (!level.value || row.getAttribute('data-level') === level.value) &&
        (!q || row.textContent.toLowerCase().indexOf(q) >= 0);
      row.hidden = !show;
      if (show) n++;
    });
    shown.textContent = String(n);
    cards.forEach(function (card) {
      card.setAttribute('aria-pressed', String(card.getAttribute('data-verdict') === verdict.value));
    });
  }
  cards.forEach(function (card) {
    // A tile is a link to its section (without script too); the click also filters the full table.
    card.addEventListener('click', function () {
      var v = card.getAttribute('data-verdict');
      verdict.value = verdict.value === v ? '' : v;
      apply();
    });
  });
  [verdict, area, level].forEach(function (el) { el.addEventListener('change', apply); });
  text.addEventListener('input', apply);
  apply();
})();
`;
