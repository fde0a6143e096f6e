# make prove: Frama-C WP proves the decision core, lib/decide.c, against
# the ACSL contract in lib/decide.h, with -wp-rte's run-time error goals,
# through Why3 with Z3, CVC4 and cvc5 (tests/prove/run.sh; about a
# minute on 2 cores).  It fails unless every goal is proved.  Included by
# the top Makefile; its files go to $(B)/prove, none to $HOME.
prove:
	tests/prove/run.sh $(B)/prove

.PHONY: prove
