import { useState } from 'preact/hooks'

/**
 * A button that copies `text`, and says beside it whether it did (announced): the clipboard may be refused (an
 * http page on another computer, a browser's setting), and `byHand` then says to select the text and copy it.
 */
export function CopyButton({ text, label, done, byHand }: { text: string; label: string; done: string; byHand: string }) {
  const [outcome, setOutcome] = useState('')
  const copy = () =>
    navigator.clipboard
      ? navigator.clipboard.writeText(text).then(
          () => setOutcome(done),
          () => setOutcome(byHand),
        )
      : setOutcome(byHand)
  return (
    <>
      <button type="button" onClick={() => void copy()}>
        {label}
      </button>{' '}
      <span role="status">{outcome}</span>
    </>
  )
}
