"""Graphics: plotting functions accepted as no-ops until mlang draws figures."""
