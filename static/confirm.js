// Forms that destroy something ask first (data-confirm holds the question).
document.addEventListener("submit", (e) => {
  const q = e.target.dataset && e.target.dataset.confirm;
  if (q && !confirm(q)) e.preventDefault();
});
