// The end of a page's form that the API answers (create, merge): the edit summary, the submit button, and where
// the API's refusal is said. assets/api-form.js enables the button once it sends the form itself: before, a press
// would only submit the form to this page again.
import { useT } from '../messages.js';

export function ApiFormEnd({ submit }: { submit: string }) {
  const t = useT();
  return (
    <>
      <label><span>{t('Edit summary (optional)')}</span><input name="comment" type="text" maxLength={500} /></label>
      <div class="buttons"><button type="submit" class="primary" disabled>{submit}</button></div>
      <div class="editor-message" role="alert" />
    </>
  );
}
