import { render } from 'preact'
import { App } from './app'
import './console.css'
import './panels.css'

render(<App />, document.getElementById('console')!)
