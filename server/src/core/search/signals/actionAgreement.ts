/**
 * Action agreement: what the request asks to do against what each tool does (actions.ts), so
 * "list the pods" prefers a list/get tool over `exec_in_pod`. Score × (1 + action × focus ×
 * agreement), agreement −1..1. A tool that says no action (RestaurantBookingTool) gets what
 * the candidates that do say get on average, so declaring an action is not itself an
 * advantage. A server that is one tool (a plugin, a product with one entry point) does
 * whatever its product does: its description's lead verb is a pitch, not an operation to hold
 * against the request's, and it has no siblings the action would choose between — it gets
 * soloAction of the weight.
 */
import { actionAgreement as agreement, actionLexicon, toolAction } from '../actions';
import { perDocument } from '../perDocument';
import { rerankSignal, SAYS_NOTHING } from '../rerankSignal';

/** How many of a description's first words are read for its action. */
const DESCRIPTION_LEAD_WORDS = 8;

export const actionAgreement = rerankSignal({
  name: 'action agreement',
  knobs: [
    { name: 'action', grid: [0, 0.15, 0.3, 0.45, 0.6], off: { value: 0, ablation: 'action agreement' } },
    { name: 'soloAction', grid: [0, 0.5, 1], off: { value: 1, ablation: 'one-tool-server rule (soloAction 1)' } },
  ],
  profile(catalog, k) {
    if (k.action === 0) return SAYS_NOTHING;
    const { stem, termsOf } = catalog;
    const lex = actionLexicon(stem);
    // A tool's action is read when it is first a candidate (perDocument.ts), from what is
    // copied out of the view here.
    const names = catalog.tools.map((t) => t.nameTerms);
    const descriptions = catalog.tools.map((t) => t.tool.description);
    const actionOf = perDocument(names.length, (doc) => {
      // split's limit stops at the lead: a long description is not split whole.
      const lead = termsOf(descriptions[doc]!.split(/\s+/, DESCRIPTION_LEAD_WORDS).join(' '));
      return toolAction(names[doc]!, lead, lex, stem);
    });
    const weights = catalog.tools.map((t) => (t.serverSize === 1 ? k.action * k.soloAction : k.action));
    return {
      analyse(request, candidates) {
        let sum = 0;
        let known = 0;
        for (const doc of candidates) {
          const a = actionOf(doc);
          if (a) ((sum += agreement(request.action, a)), known++);
        }
        const unknown = known > 0 ? sum / known : 0;
        return (doc) => {
          const a = actionOf(doc);
          return 1 + weights[doc]! * request.focus * (a ? agreement(request.action, a) : unknown);
        };
      },
    };
  },
});
