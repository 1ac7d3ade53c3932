// Draws a tenant's usage, entitlement and rho per period with uPlot (from its Maven webjar). Reading never depends on
// this script: the same numbers are in the table under the chart.
(function () {
  var data = document.getElementById('chart-data');
  var target = document.getElementById('chart');
  if (!data || !target || typeof uPlot === 'undefined') {
    return;
  }
  var chart = JSON.parse(data.textContent);
  if (!chart.start || chart.start.length === 0) {
    target.textContent = 'No period to chart yet.';
    return;
  }
  var width = Math.max(300, Math.min(target.clientWidth || 600, 1100));
  var options = {
    width: width,
    height: 280,
    series: [
      {},
      { label: 'usage A (cap.-h)', stroke: '#0b57a4', width: 2 },
      { label: 'entitlement E (cap.-h)', stroke: '#2e7d32', width: 2, dash: [6, 4] },
      { label: 'rho', stroke: '#b3261e', width: 2, scale: 'rho' }
    ],
    axes: [{}, { label: 'capacity-hours' }, { side: 1, scale: 'rho', label: 'rho', grid: { show: false } }]
  };
  var rho = chart.rho.map(function (v) { return v === null ? null : v; });
  new uPlot(options, [chart.start, chart.actual, chart.entitled, rho], target);
  target.setAttribute('data-drawn', 'true');
})();
